import Foundation
import Testing

/// ModuleHost's layers run one way: a file names only types declared in its own layer or a lower one.
///
/// All layers are one target, so the compiler cannot stop a back-edge; this check over the sources does.
/// Comments and string literals are ignored (a doc comment may link to a higher type).
@Suite("Layers")
struct LayerTests {
    /// Every folder of `Sources/ModuleHost`, lowest layer first. A new folder must be placed here.
    static let layers: [[String]] = [
        ["Support"],                        // utilities that know nothing of modules
        ["Module", "Extensions", "Commands"],  // the module model: what a module author writes against
        ["Manifest"],               // reading and validating manifests
        ["Plugins"],                // loading plugin libraries a manifest names
        ["Registry"],               // registration, loading, caches: the live resolver behind the bridge
        ["Initiator"],              // planning and running startup operations
        ["Manager"],                // ModuleManager, which puts the layers together
    ]

    static let hostFolder = "Sources/ModuleHost"

    /// The layer of a file at `path` relative to the host folder (`Manifest/Validation/X.swift` → Manifest's).
    private func layer(of path: String) -> Int? {
        let folder = path.split(separator: "/").first.map(String.init) ?? ""
        return Self.layers.firstIndex { $0.contains(folder) }
    }

    /// Top-level type names a source declares (`struct X`, `final class Y`, `public enum Z`…).
    static func declaredTypes(in code: String) -> Set<String> {
        let declaration = #/(?m)^(?:@\w+(?:\([^()]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|final|indirect)\s+)*(?:class|struct|enum|protocol|actor|typealias)\s+(?<name>[A-Z]\w*)/#
        return Set(code.matches(of: declaration).map { String($0.output.name) })
    }

    /// Every capitalised identifier a source uses.
    static func typeLikeIdentifiers(in code: String) -> Set<String> {
        Set(code.matches(of: #/\b[A-Z]\w*\b/#).map { String($0.output) })
    }

    private func sources() throws -> [(path: String, code: String)] {
        let root = PackageDump.root.appendingPathComponent(Self.hostFolder)
        return try SwiftSource.files(under: Self.hostFolder, root: PackageDump.root).map { file in
            let relative = String(file.dropFirst(Self.hostFolder.count + 1))
            let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
            return (relative, SwiftSource.code(text))
        }
    }

    @Test func everyFolderHasALayer() throws {
        let files = try sources()
        #expect(files.count > 50, "the scan found only \(files.count) files in \(Self.hostFolder)")
        let unplaced = files.filter { layer(of: $0.path) == nil }.map(\.path)
        #expect(unplaced.isEmpty, "these files are in no layer; add their folder to LayerTests.layers: \(unplaced)")
    }

    @Test func noLayerNamesAHigherOne() throws {
        let files = try sources()
        var owner: [String: Int] = [:]
        for file in files {
            guard let rank = layer(of: file.path) else { continue }
            for name in Self.declaredTypes(in: file.code) { owner[name] = rank }
        }
        #expect(owner["ModuleManager"] == 6 && owner["ModuleProtocol"] == 1 && owner["ModuleRegistry"] == 4,
                "the scan did not find the declarations it expects: \(owner.count) types")
        var violations: [String] = []
        for file in files {
            guard let rank = layer(of: file.path) else { continue }
            for name in Self.typeLikeIdentifiers(in: file.code).sorted() {
                if let higher = owner[name], higher > rank {
                    violations.append("\(file.path) (\(Self.layers[rank][0])) names \(name) (\(Self.layers[higher][0]))")
                }
            }
        }
        #expect(violations.isEmpty, """
            A lower layer names a higher one; move the type down, or hand the lower layer an abstraction it owns \
            (as the module model does with ModuleContext):
            \(violations.joined(separator: "\n"))
            """)
    }

    @Test func theCheckSeesABackEdge() {
        // The scan itself: a Module-layer source naming the manager is caught, the same name in a comment is not.
        let code = SwiftSource.code("/// See ``ModuleManager``.\nstruct X { let m: ModuleManager }\n")
        #expect(Self.typeLikeIdentifiers(in: code).contains("ModuleManager"))
        #expect(!Self.typeLikeIdentifiers(in: SwiftSource.code("/// ModuleManager\nstruct X {}\n")).contains("ModuleManager"))
        #expect(Self.declaredTypes(in: "public final class ModuleManager: ModuleContext {}\n") == ["ModuleManager"])
    }
}
