import Foundation
import TestSupport

/// The test plugin of ``CtrlCTrialsTests``, built once per test process (``PluginBuild`` builds it).
actor SlowPlugin {
    static let shared = SlowPlugin()
    private var slow: Task<URL, any Error>?

    /// A copy of the Greeter plugin with two more commands: `slow`, which says `slow: started` and then waits an
    /// hour unless cancelled, and `stubborn`, which says `stubborn: started` and then never ends, ignoring
    /// cancellation.
    func library() async throws -> URL {
        if let slow { return try await slow.value }
        let commands = [
            #"    .command(ModuleCommand("slow", summary: "runs until cancelled") { context in"#,
            #"        context.io.write("slow: started")"#,
            #"        try await Task.sleep(for: .seconds(3600))"#,
            #"        return .text("slow: finished")"#,
            "    }),",
            #"    .command(ModuleCommand("stubborn", summary: "never ends, ignoring cancellation") { context in"#,
            #"        context.io.write("stubborn: started")"#,
            "        await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }",
            #"        return .text("stubborn: finished")"#,
            "    }),",
        ]
        let task = Task {
            try await PluginBuild.buildCopy(named: "slow-plugin") { text in
                text.replacingOccurrences(of: "    ]\n\n    /// Creates the module.",
                                          with: commands.joined(separator: "\n") + "\n    ]\n\n    /// Creates the module.")
            }
        }
        slow = task
        return try await task.value
    }
}
