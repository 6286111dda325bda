// The build tool behind the ABIIdentityGenerator plugin (Plugins/ABIIdentityGenerator):
//
//   ABIIdentityTool <output.swift> <swiftc> <module> <sources-folder> <source.swift>...
//
// writes <output.swift>, the ABI identity of <module> for these sources (ModuleHost's with the compiler <swiftc>
// and its target triple).
// The file is rewritten only when its text changes, so an unchanged identity recompiles nothing.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 5 else {
    print("usage: ABIIdentityTool <output.swift> <swiftc> <module> <sources-folder> <source.swift>...")
    exit(64)
}
do {
    let output = URL(fileURLWithPath: arguments[1])
    let module = arguments[3]
    let digest = try SourceDigest.digest(files: Array(arguments[5...]), relativeTo: arguments[4])
    let text: String
    if module == "ModuleHost" {
        let compiler = try CompilerInfo.read(swiftc: arguments[2])
        text = GeneratedSource.text(ABIMarkText(digest: digest, triple: compiler.triple, compiler: compiler.version))
    } else {
        text = GeneratedSource.moduleText(module: module, digest: digest)
    }
    if (try? String(contentsOf: output, encoding: .utf8)) != text {
        try Data(text.utf8).write(to: output, options: .atomic)
    }
} catch {
    print("ABIIdentityTool: \(error)")
    exit(1)
}
