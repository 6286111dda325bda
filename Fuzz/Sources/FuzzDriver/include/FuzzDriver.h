// libFuzzer's driver, called from FuzzTarget's main (see Sources/FuzzTarget/main.swift for why).
#ifndef MODULEHOST_FUZZ_DRIVER_H
#define MODULEHOST_FUZZ_DRIVER_H

#include <stddef.h>
#include <stdint.h>

/// Runs libFuzzer with the command line `argc`/`argv`, calling `callback` once per input (libFuzzer >= 11).
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
