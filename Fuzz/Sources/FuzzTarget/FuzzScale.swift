import Foundation
import ModuleHost

// Scaled inputs: libFuzzer's inputs stay under -max_len (64 KiB), which hid costs that grow faster
// than the manifest (quadratic string escapes, per-entry suggestion lookups, reports past the problem cap).
// An input whose first byte is 0x01 is a recipe for a manifest up to the 8 MiB limit:
//
//   byte 1        the shape, mod 6 (below)
//   bytes 2...4   the repeat count, big-endian, mod 2^21 (up to about two million)
//   the rest      a fragment (at most 64 bytes), repeated
//
// Shapes: 0 one string of the fragment repeated, as a type name; 1 the same as a field name; 2 the fragment
// repeated as module entries; 3 as keys of one entry's `operations`; 4 as keys of AlphaModule's `config`; 5 as
// keys of the manifest object itself. Inputs are cut at 8 MiB + 1 byte, so the size limit is reached too.

/// The largest manifest built: one byte past the reader's 8 MiB limit.
private let scaledLimit = (8 << 20) + 1

/// Builds the manifest a 0x01 input describes and checks it: bounded report, time left to libFuzzer's -timeout.
func fuzzScaled(_ bytes: [UInt8]) {
    guard bytes.count >= 4 else { return }
    let shape = Int(bytes[0]) % 6
    let count = (Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])) % (1 << 21)
    let fragment = Array(bytes.dropFirst(4).prefix(64))
    var out: [UInt8] = []
    out.reserveCapacity(min(scaledLimit, 64 + count * (fragment.count + 16)))
    func append(_ text: String) { out.append(contentsOf: text.utf8) }
    func repeated(separator: String, _ item: (Int) -> Void) {
        for index in 0..<count where out.count < scaledLimit {
            if index > 0 { append(separator) }
            item(index)
        }
    }
    switch shape {
    case 0:
        append(#"{"modules": [""#)
        repeated(separator: "") { _ in out.append(contentsOf: fragment) }
        append(#""]}"#)
    case 1:
        append(#"{"modules": [], ""#)
        repeated(separator: "") { _ in out.append(contentsOf: fragment) }
        append(#"": 1}"#)
    case 2:
        append(#"{"modules": ["#)
        repeated(separator: ",") { _ in out.append(contentsOf: fragment) }
        append("]}")
    case 3:
        append(#"{"modules": [{"type": "FuzzTarget.AlphaModule", "operations": {"#)
        repeated(separator: ",") { index in append("\"op\(index)\": "); out.append(contentsOf: fragment) }
        append("}}]}")
    case 4:
        append(#"{"modules": [{"type": "FuzzTarget.AlphaModule", "config": {"#)
        repeated(separator: ",") { index in append("\"k\(index)\": "); out.append(contentsOf: fragment) }
        append("}}]}")
    default:
        append(#"{"modules": []"#)
        repeated(separator: "") { index in append(",\"f\(index)\": "); out.append(contentsOf: fragment) }
        append("}")
    }
    if out.count > scaledLimit { out.removeSubrange(scaledLimit...) }
    let data = Data(out)
    log("scaled input: shape \(shape), count \(count), \(data.count) bytes")
    let manager = ModuleManager(typeResolver: fuzzResolver, maxConcurrentOperations: 2)
    let diagnostics = manager.validateManifest(data, file: "fuzz/modules.json")
    // The one cap covers every stage: at most 1,000 problems and the note that more were dropped.
    invariant(diagnostics.count <= 1_001, "\(diagnostics.count) diagnostics for a scaled manifest; the cap is 1,000 and a note")
    invariant(diagnostics.filter { $0.code == .tooManyProblems }.count <= 1, "more than one too-many-problems note")
    for diagnostic in diagnostics {
        invariant(!diagnostic.message.isEmpty, "a diagnostic without a message: \(diagnostic.code)")
    }
}
