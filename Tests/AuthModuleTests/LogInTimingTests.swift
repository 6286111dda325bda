import Foundation
import Testing

@testable import AuthModule
import ModuleHostTesting

/// Whether a name is configured must not show in how long a log-in takes, whatever hash
/// methods and costs the configuration mixes. Measured as a ratio of medians over many trials, never as an
/// absolute time.
@Suite("Log-in timing", .serialized, .disabled(if: Sanitizers.threadSanitizerIsActive, "CPU-bound, proves no concurrency property; runs in the plain suite"))
struct LogInTimingTests {
    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }

    @Test func unknownAndKnownNamesCostTheSameWhenMethodsAreMixed() throws {
        // The old code checked unknown names against the first user's hash: here a cheap sha512crypt.
        let cheap = try PasswordHasher.hash("cheap-secret", scheme: .sha512(rounds: 1000))
        let costly = try PasswordHasher.hash("costly-secret", scheme: .yescrypt(cost: 5))
        let directory = try UserDirectory(records: [
            ("users[0]", .init(username: "first", passwordHash: cheap)),
            ("users[1]", .init(username: "known", passwordHash: costly)),
        ])
        _ = try? directory.authenticate(username: "warm-up", password: "x")
        let clock = ContinuousClock()
        // Paired trials, each known name timed right beside an unknown one, and the median of the per-trial
        // ratios: load from tests running in parallel moves both sides of a pair alike.
        var knownRatios: [Double] = [], cheapRatios: [Double] = []
        for trial in 0..<21 {
            let unknown = seconds(clock.measure { _ = try? directory.authenticate(username: "nobody-\(trial)", password: "guess") })
            let known = seconds(clock.measure { _ = try? directory.authenticate(username: "known", password: "guess") })
            let unknownAgain = seconds(clock.measure { _ = try? directory.authenticate(username: "nobody-\(trial)", password: "guess") })
            let cheapKnown = seconds(clock.measure { _ = try? directory.authenticate(username: "first", password: "guess") })
            knownRatios.append(known / unknown)
            cheapRatios.append(cheapKnown / unknownAgain)
        }
        let ratio = median(knownRatios)
        let cheapRatio = median(cheapRatios)
        print("log-in timing: known/unknown \(ratio), cheap-known/unknown \(cheapRatio) (medians of 21 paired trials)")
        #expect(ratio > 0.5 && ratio < 2, "known/unknown: \(knownRatios)")
        #expect(cheapRatio > 0.5 && cheapRatio < 2, "cheap known/unknown: \(cheapRatios)")
    }
}
