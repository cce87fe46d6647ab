/*
 * unit.h - what every cmocka unit test includes. Tests are named
 * test_<module>__<case> so that a failure names itself.
 */
#ifndef AA_UNIT_H
#define AA_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <string.h>

/* A counted view of a string literal, for parser tables. */
#define LIT(s) (s), (sizeof(s) - 1)

#endif
