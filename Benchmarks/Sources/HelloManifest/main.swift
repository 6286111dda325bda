// The shell benchmark's floor: what `app-shell modules` does, written by hand for the demo's three modules. It
// reads modules.json from the current directory, decodes it with JSONDecoder, the configs into typed structs of the
// same shape as the modules' (Auth's users, Numbers' history limit), and prints one line per module. No lookup by
// name, no validation, no registry, and none of the modules' own checks (AuthModule also checks each password
// hash's format): less than any program that lists the manifest's modules with their checked configurations must
// pay on top of hello-essentials. It exits 1 if the manifest does not decode, so the benchmark never times an error.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct AuthConfiguration: Decodable {
    struct User: Decodable {
        let username: String
        let displayName: String?
        let passwordHash: String
    }

    let sessionLifetime: Double
    let users: [User]
}

struct NumbersConfiguration: Decodable {
    let historyLimit: Int
}

struct Entry: Decodable {
    let type: String
    let eager: Bool

    private enum CodingKeys: String, CodingKey { case type, eager, config }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        eager = try container.decodeIfPresent(Bool.self, forKey: .eager) ?? false
        switch type {
        case "AuthModule.AuthModule": _ = try container.decode(AuthConfiguration.self, forKey: .config)
        case "NumbersModule.NumbersModule": _ = try container.decode(NumbersConfiguration.self, forKey: .config)
        default: break
        }
    }
}

struct Manifest: Decodable {
    let version: Int
    let modules: [Entry]
}

do {
    let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: URL(fileURLWithPath: "modules.json")))
    print("MODULE TYPE STATE")
    for entry in manifest.modules { print(entry.type, entry.eager ? "registered (eager)" : "registered") }
} catch {
    print("hello-manifest: \(error)")
    exit(1)
}
