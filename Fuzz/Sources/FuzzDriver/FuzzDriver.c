// Empty: the module only declares LLVMFuzzerRunDriver, which libFuzzer (linked by -sanitize=fuzzer) defines.
#include "FuzzDriver.h"
