/*
 * util_spec.h - the model the proof of base/util.c's str_eq_nocase is
 * stated over (docs/proof.md). Frama-C only: tests/prove/wp.sh
 * force-includes it (-include) ahead of src/base/util.c, and
 * policy_spec.h includes it for the proof of the label's words; no
 * compiler ever sees it.
 *
 * SameName is what GitHub means by "the same login" or "the same label":
 * the two NUL-terminated strings have the same length and, byte for
 * byte, the same ASCII lower case (Lower: 'A'..'Z' to 'a'..'z', every
 * other byte, UTF-8 included, itself). It is a definition, over the
 * bytes of memory at the label it is read at: str_eq_nocase is proved to
 * answer exactly it.
 */
#ifndef AA_UTIL_SPEC_H
#define AA_UTIL_SPEC_H

#include "base/util.h"

/*@ logic integer Lower(integer c) = 'A' <= c <= 'Z' ? c + ('a' - 'A') : c;

  // a[0 .. n) and b[0 .. n) hold no NUL and are equal up to case.
  predicate NoCasePrefix{L}(char *a, char *b, integer n) =
    \forall integer i; 0 <= i < n ==>
      a[i] != '\0' && b[i] != '\0' &&
      Lower((unsigned char)a[i]) == Lower((unsigned char)b[i]);

  predicate SameName{L}(char *a, char *b) =
    \exists integer n; 0 <= n && NoCasePrefix(a, b, n) &&
      a[n] == '\0' && b[n] == '\0';
*/

/*@ assigns \nothing;
    ensures \result == Lower(c); */
static inline int to_lower(int c);

/*@ requires valid_read_string(a) && valid_read_string(b);
    assigns \nothing;
    ensures same_name: \result <==> SameName((char *)a, (char *)b); */
bool str_eq_nocase(const char *a, const char *b);

#endif
