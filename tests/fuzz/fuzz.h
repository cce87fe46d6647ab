/*
 * fuzz.h - the libFuzzer entry point every target defines. Built two ways:
 * with clang -fsanitize=fuzzer for campaigns (`make fuzz`), and with
 * driver.c, a plain main() that replays a corpus, inside `make check`.
 */
#ifndef AA_FUZZ_H
#define AA_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant broke: crash loudly so the fuzzer records the input. */
#define FUZZ_ASSERT(cond)                                                 \
	do {                                                              \
		if (!(cond))                                              \
			abort();                                          \
	} while (0)

#endif
