import Foundation

/// Runs an installed tool (`ldd`, `nm`, `objdump`) to its end and gives what it wrote to standard output.
package enum ToolOutput {
    /// The tool at `path`, run with `arguments`: its exit status and its standard output.
    package static func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
