import AuthInterface
import Foundation
import ModuleHostTesting
import Testing

@testable import AuthModule

@Suite struct AuthenticatorTests {
    @Test func logInAndOutDriveTheStateStreamAndHook() async throws {
        try await withTemporaryDirectory { directory in
            let recorder = ChangeRecorder()
            let clock = FakeClock()
            let auth = try makeAuthenticator(in: directory, clock: clock, recorder: recorder)
            #expect(auth.state == .notAuthenticated(nil))

            let stream = auth.stateChanges()
            let collector = Task {
                var states: [AuthenticationModel] = []
                for await state in stream {
                    states.append(state)
                    if states.count == 3 { break }
                }
                return states
            }

            let user = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            #expect(user.username == "alice")
            #expect(user.displayName == "Alice Liddell")
            #expect(user.authenticatedAt.timeIntervalSince1970 == clock.now.timeIntervalSince1970.rounded(.down))
            #expect(user.expiresAt == user.authenticatedAt.addingTimeInterval(3600))
            #expect(auth.state == .authenticated(user))
            #expect(FileManager.default.fileExists(atPath: directory.sessionFile.path))

            try await auth.logOut()
            #expect(auth.state == .notAuthenticated(.loggedOut))
            #expect(!FileManager.default.fileExists(atPath: directory.sessionFile.path))

            let states = await collector.value
            #expect(states == [.notAuthenticated(nil), .authenticated(user), .notAuthenticated(.loggedOut)])
            #expect(recorder.recorded == [.authenticated(user), .deauthenticated(user, reason: .loggedOut)])

            // A second log-out changes nothing.
            try await auth.logOut()
            #expect(recorder.recorded.count == 2)
        }
    }

    @Test func eachStreamStartsWithTheCurrentState() async throws {
        try await withTemporaryDirectory { directory in
            let auth = try makeAuthenticator(in: directory)
            let user = try await auth.logIn(username: "bob", password: Fixtures.bobPassword)
            var iterator = auth.stateChanges().makeAsyncIterator()
            #expect(await iterator.next() == .authenticated(user))
            try await auth.logOut()
            #expect(await iterator.next() == .notAuthenticated(.loggedOut))
        }
    }

    @Test func sessionChangesReachTheHookInOrder() async throws {
        try await withTemporaryDirectory { directory in
            let recorder = ChangeRecorder()
            let auth = try makeAuthenticator(in: directory, recorder: recorder)
            let user = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            try await auth.logOut()
            #expect(recorder.recorded == [.authenticated(user), .deauthenticated(user, reason: .loggedOut)])
        }
    }

    @Test func wrongPasswordAndUnknownUserLookTheSame() async throws {
        try await withTemporaryDirectory { directory in
            let recorder = ChangeRecorder()
            let auth = try makeAuthenticator(in: directory, recorder: recorder)

            let wrong = await #expect(throws: AuthError.self) {
                try await auth.logIn(username: "alice", password: "not-wonderland")
            }
            let unknown = await #expect(throws: AuthError.self) {
                try await auth.logIn(username: "mallory", password: Fixtures.alicePassword)
            }
            #expect(wrong?.code == .wrongPassword)
            #expect(unknown?.code == .unknownUser)
            #expect(wrong?.message == "invalid username or password")
            #expect(wrong?.message == unknown?.message)
            #expect(wrong?.description == unknown?.description)
            #expect(wrong?.localizedDescription == "invalid username or password")

            // Usernames are exact.
            let uppercase = await #expect(throws: AuthError.self) {
                try await auth.logIn(username: "Alice", password: Fixtures.alicePassword)
            }
            #expect(uppercase?.code == .unknownUser)

            #expect(auth.state == .notAuthenticated(nil))
            #expect(recorder.recorded.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory.sessionFile.path))
        }
    }

    @Test func unknownUsersCostAboutAsMuchAsKnownUsers() async throws {
        try await withTemporaryDirectory { directory in
            // Default cost (yescrypt 5): tens of milliseconds per check, far above the noise.
            let hash = try AuthModuleTools.hashPassword("slow")
            let auth = try makeAuthenticator(in: directory, users: [.init(username: "slow", passwordHash: hash)])
            func duration(_ username: String) async -> Duration {
                let clock = ContinuousClock()
                return await clock.measure { _ = try? await auth.logIn(username: username, password: "guess") }
            }
            // The fastest of five interleaved pairs: a stall only ever adds time, so the minima compare the checks.
            var known: [Duration] = []
            var unknown: [Duration] = []
            for _ in 0..<5 {
                known.append(await duration("slow"))
                unknown.append(await duration("nobody"))
            }
            let fastestKnown = try #require(known.min())
            let fastestUnknown = try #require(unknown.min())
            #expect(fastestUnknown > fastestKnown / 4, "unknown user took \(unknown), known user \(known)")
        }
    }

    @Test func logInWhileAuthenticatedIsRejected() async throws {
        try await withTemporaryDirectory { directory in
            let auth = try makeAuthenticator(in: directory)
            let alice = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            let error = await #expect(throws: AuthError.self) {
                try await auth.logIn(username: "bob", password: Fixtures.bobPassword)
            }
            #expect(error?.code == .alreadyAuthenticated)
            #expect(auth.state == .authenticated(alice))
        }
    }

    @Test func concurrentLogInsProduceExactlyOneSession() async throws {
        try await withTemporaryDirectory { directory in
            let recorder = ChangeRecorder()
            let auth = try makeAuthenticator(in: directory, recorder: recorder)
            let results = await withTaskGroup(of: AuthError.Code?.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let (name, password) = index.isMultiple(of: 2)
                            ? ("alice", Fixtures.alicePassword) : ("bob", Fixtures.bobPassword)
                        do throws(AuthError) {
                            _ = try await auth.logIn(username: name, password: password)
                            return nil
                        } catch {
                            return error.code
                        }
                    }
                }
                var codes: [AuthError.Code?] = []
                for await code in group { codes.append(code) }
                return codes
            }
            #expect(results.filter { $0 == nil }.count == 1)
            #expect(results.compactMap { $0 }.allSatisfy { $0 == .alreadyAuthenticated })
            #expect(recorder.recorded.count == 1)
            #expect(auth.state.isAuthenticated)
        }
    }

    @Test func sessionsExpire() async throws {
        try await withTemporaryDirectory { directory in
            let clock = FakeClock()
            let recorder = ChangeRecorder()
            let auth = try makeAuthenticator(in: directory, lifetime: 60, clock: clock, recorder: recorder)
            let user = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            var iterator = auth.stateChanges().makeAsyncIterator()
            #expect(await iterator.next() == .authenticated(user))

            clock.advance(by: 59)
            #expect(auth.state == .authenticated(user))
            clock.advance(by: 1)
            #expect(auth.state == .notAuthenticated(.expired))
            #expect(await iterator.next() == .notAuthenticated(.expired))
            #expect(recorder.recorded == [.authenticated(user), .deauthenticated(user, reason: .expired)])
            #expect(!FileManager.default.fileExists(atPath: directory.sessionFile.path))

            // A new log-in after expiry works.
            let again = try await auth.logIn(username: "alice", password: Fixtures.alicePassword)
            #expect(again.authenticatedAt > user.authenticatedAt)
        }
    }

    /// Not under Thread Sanitizer: there, in the full suite on two cores, the timer did not fire within 60 s in two of
    /// three fresh-clone runs (alone it passes); the cause is not found yet. The plain suite runs it every time.
    @Test(.disabled(if: Sanitizers.threadSanitizerIsActive, "the timer did not fire within 60 s in the full TSan suite; under study"))
    func theExpiryTimerReportsExpiryWithoutAnyoneAsking() async throws {
        try await withTemporaryDirectory { directory in
            let recorder = ChangeRecorder()
            // A real clock, one-second lifetime: the monotonic one, read as dates, so the timer (which sleeps on the
            // monotonic clock) and the expiry check agree even where the wall clock lags (a fresh-clone CI run saw no
            // expiry in 60 s under Thread Sanitizer on a machine whose wall clock ran slow).
            let start = Date(), started = ContinuousClock.now
            let now: @Sendable () -> Date = { start.addingTimeInterval((ContinuousClock.now - started) / .seconds(1)) }
            let resolved = try makeConfiguration(in: directory, lifetime: 1).resolve(baseDirectory: directory.url)
            let auth = Authenticator(configuration: resolved, now: now, onSessionChange: recorder.hook)
            let user = try await auth.logIn(username: "bob", password: Fixtures.bobPassword)
            // A generous bound: under Thread Sanitizer on 2 cores the timer task may wait for a free thread.
            #expect(await eventually({ recorder.recorded.count == 2 }, timeout: .seconds(60)))
            // The timer holds the authenticator weakly: it must live until here.
            withExtendedLifetime(auth) {}
            #expect(recorder.recorded.last == .deauthenticated(user, reason: .expired))
        }
    }

    @Test func finishedStreamsAreReleased() async throws {
        try await withTemporaryDirectory { directory in
            let streams = StateStreams()
            let auth = try makeAuthenticator(in: directory, streams: streams)

            // Dropped without iterating.
            _ = auth.stateChanges()
            #expect(streams.count == 0)

            // Iterated, then the consumer is cancelled.
            let stream = auth.stateChanges()
            #expect(streams.count == 1)
            let consumer = Task {
                for await _ in stream {}
            }
            consumer.cancel()
            await consumer.value
            #expect(await eventually({ streams.count == 0 }))

            // Iterated, then the consumer stops by itself.
            for await _ in auth.stateChanges() { break }
            #expect(await eventually({ streams.count == 0 }))
        }
    }

    @Test func streamsEndWhenTheAuthenticatorGoesAway() async throws {
        try await withTemporaryDirectory { directory in
            var auth: Authenticator? = try makeAuthenticator(in: directory)
            let stream = try #require(auth).stateChanges()
            let consumer = Task {
                var count = 0
                for await _ in stream { count += 1 }
                return count
            }
            auth = nil
            #expect(await consumer.value == 1)
        }
    }
}
