#ifndef MODULEHOST_CCRYPT_SHIM_H
#define MODULEHOST_CCRYPT_SHIM_H

/*
 * crypt(3) for AuthModule.
 *
 * Linux: libxcrypt's <crypt.h> provides the thread-safe crypt_rn, crypt_gensalt_rn and
 * crypt_checksalt used for yescrypt ($y$) and sha512crypt ($6$) password hashes.
 *
 * Elsewhere (macOS) crypt() is declared in <unistd.h> and only supports legacy DES hashes;
 * AuthModule compiles there but reports hashing as unavailable (see PasswordHasher.swift).
 */
#if __has_include(<crypt.h>)
#include <crypt.h>
#define CCRYPT_HAS_XCRYPT 1
#else
#include <unistd.h>
#define CCRYPT_HAS_XCRYPT 0
#endif

#endif
