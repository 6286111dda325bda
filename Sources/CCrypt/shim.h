#ifndef MODULEHOST_CCRYPT_SHIM_H
#define MODULEHOST_CCRYPT_SHIM_H
#include <crypt.h>
#endif
