import Foundation

/// What `/proc/<pid>/status` says of a process's signal dispositions.
enum ProcessStatus {
    /// Whether `status`, the text of `/proc/<pid>/status`, is app-shell's (not yet the `sh` that executes it) and
    /// shows `signal` caught or ignored: no longer its default action, which would end the process.
    static func appShellHandles(_ signal: Int32, status: String) -> Bool {
        let fields = status.split(separator: "\n")
        guard fields.first == "Name:\tapp-shell" else { return false }
        let bit = UInt64(1) << UInt64(signal - 1)
        return ["SigCgt:", "SigIgn:"].contains { name in
            guard let line = fields.first(where: { $0.hasPrefix(name) }),
                  let mask = UInt64(line.dropFirst(name.count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return false }
            return mask & bit != 0
        }
    }
}
