import FuzzDriver
import Foundation

// SwiftPM links an executable target on Linux with `--defsym main=FuzzTarget_main`, so libFuzzer's own
// `main` cannot be used (the usual `-parse-as-library` recipe fails with "undefined symbol FuzzTarget_main").
// Instead this top-level code is the program's main and hands the command line to libFuzzer's driver,
// which accepts every libFuzzer flag (`-max_total_time`, `-runs`, crash files to replay, ...).
var argumentCount = CommandLine.argc
var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let status = LLVMFuzzerRunDriver(&argumentCount, &argumentVector) { data, size in
    fuzzOneInput(data.map(UnsafeRawPointer.init), size)
}
exit(status)
