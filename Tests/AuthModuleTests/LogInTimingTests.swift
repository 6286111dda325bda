import Foundation
import Testing

@testable import AuthModule

/// Issue 13, point 9: whether a name is configured must not show in how long a log-in takes, whatever hash
/// methods and costs the configuration mixes. Measured as a ratio of medians over many trials, never as an
/// absolute time.
@Suite("Log-in timing", .serialized)
struct LogInTimingTests {
    private func median(_ times: [Duration]) -> Double {
        let sorted = times.sorted()
        let middle = sorted[sorted.count / 2]
        return Double(middle.components.seconds) + Double(middle.components.attoseconds) / 1e18
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
        var unknown: [Duration] = [], known: [Duration] = [], cheapKnown: [Duration] = []
        for trial in 0..<15 {
            unknown.append(clock.measure { _ = try? directory.authenticate(username: "nobody-\(trial)", password: "guess") })
            known.append(clock.measure { _ = try? directory.authenticate(username: "known", password: "guess") })
            cheapKnown.append(clock.measure { _ = try? directory.authenticate(username: "first", password: "guess") })
        }
        let ratio = median(known) / median(unknown)
        let cheapRatio = median(cheapKnown) / median(unknown)
        print("log-in timing: known/unknown \(ratio), cheap-known/unknown \(cheapRatio) (medians of 15)")
        #expect(ratio > 0.5 && ratio < 2, "known \(median(known)) s, unknown \(median(unknown)) s")
        #expect(cheapRatio > 0.5 && cheapRatio < 2, "cheap known \(median(cheapKnown)) s, unknown \(median(unknown)) s")
    }
}
