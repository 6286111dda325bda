import AuthInterface
import Foundation
import ModuleHost
import Testing

@testable import AuthModule

/// `validate` reports what loading the module would, because the checks run while the
/// configuration is decoded; each error is located at the field.
@Suite("AuthModule: validation says what startup says")
struct ValidationMatchesStartupTests {
    private func validate(config: String) -> [String] {
        let manifest = #"{"modules": [{"type": "AuthModule.AuthModule", "config": \#(config)}]}"#
        return ModuleManager().validateManifest(Data(manifest.utf8)).filter { $0.severity == .error }.map(\.description)
    }

    private static let goodHash = "$6$rounds=1000$abcdefgh$" + String(repeating: "a", count: 86)

    @Test func aPlaintextPasswordHashIsAnErrorAtTheField() {
        let errors = validate(config: #"{"users": [{"username": "alice", "passwordHash": "wonderland"}]}"#)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("users[0].passwordHash") == true, "\(errors)")
        #expect(errors.first?.contains("never a plaintext password") == true)
        #expect(errors.first?.contains("wonderland") == false, "the value is never echoed")
    }

    @Test func noUsersIsAnError() {
        for config in ["{}", #"{"users": []}"#] {
            let errors = validate(config: config)
            #expect(errors.count == 1 && errors.first?.contains("no users configured") == true, "\(config): \(errors)")
        }
    }

    @Test(arguments: ["1e308", "0", "-5", "31622401"])
    func aSessionLifetimeOutOfRangeIsAnErrorAtTheField(_ value: String) throws {
        let config = #"{"users": [{"username": "alice", "passwordHash": "\#(Self.goodHash)"}], "sessionLifetime": \#(value)}"#
        // The hash must be accepted, so that the lifetime is the only problem.
        #expect(PasswordHasher.looksLikeSupportedHash(Self.goodHash))
        let errors = validate(config: config)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("sessionLifetime") == true)
        #expect(errors.first?.contains("at most 31622400") == true, "\(errors)")
    }

    @Test func aValidConfigurationStaysValid() {
        #expect(validate(config: #"{"users": [{"username": "alice", "passwordHash": "\#(Self.goodHash)"}], "sessionLifetime": 60}"#).isEmpty)
        #expect(validate(config: #"{"usersFile": "users.json"}"#).isEmpty, "the users file is read at load")
    }
}
