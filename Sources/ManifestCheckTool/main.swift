// The build tool behind the ManifestCheck plugin (Plugins/ManifestCheck):
//
//   ManifestCheckTool <output.swift> <modules.json>
//
// writes <output.swift>, the module types the manifest names (LinkedModulesSource). A manifest that does not exist
// gives an empty list. The file is rewritten only when its text changes.
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
import ModuleHostJSON

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ManifestCheckTool <output.swift> <modules.json>")
    exit(64)
}
let output = URL(fileURLWithPath: arguments[1]), path = arguments[2]
var text = LinkedModulesSource.text(entries: [], manifest: path)
if let bytes = try? Data(contentsOf: URL(fileURLWithPath: path)) {
    do {
        let manifest = try JSONParser.parse(Array(bytes))
        text = LinkedModulesSource.text(entries: LinkedModulesSource.entries(in: manifest), manifest: path)
    } catch {
        text = LinkedModulesSource.text(entries: [], manifest: path, problem: error)
    }
}
do {
    if (try? String(contentsOf: output, encoding: .utf8)) != text {
        try Data(text.utf8).write(to: output, options: .atomic)
    }
} catch {
    print("ManifestCheckTool: \(error)")
    exit(1)
}
