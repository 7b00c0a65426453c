/*
 * sanitized.h: SANITIZED is 1 in the AddressSanitizer build (gcc says so
 * with __SANITIZE_ADDRESS__, clang with __has_feature), else 0.  Tests that
 * do much arithmetic or run the simulator for long sample more thinly
 * there: that build is for memory errors, the normal one checks it all.
 */
#ifndef TESTS_SANITIZED_H
#define TESTS_SANITIZED_H

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#endif
