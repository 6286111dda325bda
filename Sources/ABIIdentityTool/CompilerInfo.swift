#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The compiler's version and target triple, as `swiftc -print-target-info` reports them.
struct CompilerInfo: Decodable {
    /// What `swiftc -print-target-info` says of the target.
    struct Target: Decodable {
        let triple: String
    }

    /// For example "Swift version 6.3.1 (swift-6.3.1-RELEASE)".
    let compilerVersion: String
    let target: Target

    var version: String { compilerVersion }
    var triple: String { target.triple }

    /// Why the compiler could not be asked.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `swiftc -print-target-info` and decodes its answer.
    static func read(swiftc: String) throws -> CompilerInfo {
        let quoted = "'" + swiftc.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
        guard let pipe = popen("\(quoted) -print-target-info", "r") else {
            throw Failure(description: "could not run \(swiftc)")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, pipe)
            if count <= 0 { break }
            output += buffer[..<count]
        }
        let status = pclose(pipe)
        guard status == 0 else { throw Failure(description: "\(swiftc) -print-target-info failed (status \(status))") }
        return try JSONDecoder().decode(CompilerInfo.self, from: Data(output))
    }
}
