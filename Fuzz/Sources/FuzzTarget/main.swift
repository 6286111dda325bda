import FuzzDriver
import Foundation

// SwiftPM links an executable target on Linux with `--defsym main=FuzzTarget_main`, so libFuzzer's own
// `main` cannot be used (the usual `-parse-as-library` recipe fails with "undefined symbol FuzzTarget_main").
// Instead this top-level code is the program's main and hands the command line to libFuzzer's driver,
// which accepts every libFuzzer flag (`-max_total_time`, `-runs`, crash files to replay, ...).
//
// The driver runs on a thread of its own while the main thread serves the main queue: the `.high` startup
// phase calls its operations on the main actor, and each input waits for its startup to finish.
nonisolated(unsafe) var argumentCount = CommandLine.argc
nonisolated(unsafe) var argumentVector: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
let driver = Thread {
    let status = LLVMFuzzerRunDriver(&argumentCount, &argumentVector) { data, size in
        fuzzOneInput(data.map(UnsafeRawPointer.init), size)
    }
    exit(status)
}
driver.stackSize = 64 << 20  // deep manifests and AddressSanitizer's redzones
driver.start()
dispatchMain()
