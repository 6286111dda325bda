@testable import ModuleHost
import Testing

/// The other host modules a plugin uses (ModuleHostState, ModuleHostRouting, interface targets such as
/// ClockInterface) are recorded in its section after ModuleHost's mark, one `MHMOD <module> <digest>` line each, and
/// each must be this host's identity of that module; a module the plugin takes symbols from must be recorded.
@Suite("Plugin module marks")
struct ModuleMarkTests {
    static let mark = "MHABI2 \(String(repeating: "ab", count: 32)) x86_64-unknown-linux-gnu Swift version 6.3.1"
    static let clock = String(repeating: "c1", count: 32), newClock = String(repeating: "c2", count: 32)
    /// A symbol a plugin that calls ClockService takes from the host: the protocol's descriptor.
    static let clockSymbol = "$s14ClockInterface0A7ServiceMp"

    private static func host(_ modules: [String: String]) -> PluginInspector.Host {
        PluginInspector.Host(identity: .host, isExported: { _ in true }, moduleIdentity: { modules[$0] })
    }

    private func check(_ section: String, undefined: [String], host modules: [String: String]) throws(PluginError) {
        let split = ABIMark.split(section: Array(section.utf8))
        try PluginInspector.checkModules(split.modules, undefined: undefined, host: Self.host(modules), path: "/p/lib.so", library: "lib.so")
    }

    @Test func theSectionSplitsIntoTheMarkAndOneLinePerModule() throws {
        let split = ABIMark.split(section: Array("\(Self.mark)\nMHMOD ClockInterface \(Self.clock)\nMHMOD ModuleHostState \(Self.newClock)\n\0".utf8))
        #expect(split.mark == Array(Self.mark.utf8))
        #expect(split.modules == ["ClockInterface": Self.clock, "ModuleHostState": Self.newClock])
        #expect(ABIMark.split(section: Array((Self.mark + "\n").utf8)).modules == [:], "a mark alone, as the old stamp wrote it")
    }

    @Test(arguments: ["MHMOD ClockInterface short", "MHMOD Clock Interface \(clock)", "MHMOD 9Clock \(clock)", "MHABI2 x",
                      "MHMOD ClockInterface \(clock)\nMHMOD ClockInterface \(clock)"])
    func aLineThatIsNoModuleMarkIsRefused(_ lines: String) {
        let error = #expect(throws: PluginError.self) { try check("\(Self.mark)\n\(lines)", undefined: [], host: ["ClockInterface": Self.clock]) }
        #expect(error?.code == .invalidABIMark)
    }

    @Test func aModuleOfAnotherIdentityIsRefusedNamingBoth() {
        let error = #expect(throws: PluginError.self) {
            try check("\(Self.mark)\nMHMOD ClockInterface \(Self.clock)", undefined: [Self.clockSymbol], host: ["ClockInterface": Self.newClock])
        }
        #expect(error?.code == .abiMismatch)
        #expect(error?.message.contains("another ClockInterface (ABI \(Self.clock.prefix(12))…) than this host's (ABI \(Self.newClock.prefix(12))…)") == true,
                "\(error?.message ?? "")")
    }

    @Test func aModuleTheHostLacksIsRefused() {
        let error = #expect(throws: PluginError.self) {
            try check("\(Self.mark)\nMHMOD WeatherInterface \(Self.clock)", undefined: [], host: ["ClockInterface": Self.clock])
        }
        #expect(error?.code == .abiMismatch)
        #expect(error?.message.contains("WeatherInterface that this host does not have") == true, "\(error?.message ?? "")")
    }

    @Test func aModuleUsedButNotRecordedIsRefused() {
        let error = #expect(throws: PluginError.self) {
            try check(Self.mark, undefined: ["puts", "$s10ModuleHost0A7ManagerCMn", Self.clockSymbol], host: ["ClockInterface": Self.clock])
        }
        #expect(error?.code == .missingABIMark)
        #expect(error?.message.contains("uses this host's ClockInterface") == true, "\(error?.message ?? "")")
    }

    /// A module whose name repeats a word is mangled with a substitution (`$s013UserInterfaceB0…`), and an
    /// extension of a standard type names its module after `$sSS`: both are still found.
    @Test(arguments: ["$s013UserInterfaceB03FooVMn", "$sSS22UserInterfaceInterfaceE3fooyyF"])
    func aModuleNamedOnlyThroughTheDemanglerIsStillRequired(symbol: String) {
        let error = #expect(throws: PluginError.self) {
            try check(Self.mark, undefined: [symbol], host: ["UserInterfaceInterface": Self.clock])
        }
        #expect(error?.code == .missingABIMark)
        #expect(error?.message.contains("uses this host's UserInterfaceInterface") == true, "\(error?.message ?? "")")
    }

    @Test func aSectionLongerThanEveryModuleLineCanBeIsRefusedBeforeItIsSplit() {
        let huge = Self.mark + "\n" + String(repeating: "\n", count: 10_000_000)
        let error = #expect(throws: PluginError.self) { try check(huge, undefined: [], host: [:]) }
        #expect(error?.code == .invalidABIMark)
    }

    @Test func recordedModulesOfThisHostAndModulesWithoutAnIdentityPass() throws {
        // Foundation has no identity in the host: not covered, and not required.
        try check("\(Self.mark)\nMHMOD ClockInterface \(Self.clock)",
                  undefined: [Self.clockSymbol, "$s10Foundation4DataVMn", "$sSS5countSivg", "_$s14ClockInterface0A7ServiceMp"],
                  host: ["ClockInterface": Self.clock])
    }

    @Test(arguments: [
        ("$s14ClockInterface0A7ServiceMp", "ClockInterface"), ("_$s10ModuleHost0A7ManagerCMn", "ModuleHost"),
        ("$s013UserInterfaceB03FooVMn", "UserInterfaceInterface"), ("$sSS14ClockInterfaceE3fooyyF", "ClockInterface"),
        ("$sSS5countSivg", nil), ("puts", nil),
    ] as [(String, String?)])
    func theModulesASymbolNamesAreReadFromItsDemangledForm(symbol: String, module: String?) {
        let names = ABIMark.modulesNamed(by: [symbol])
        if let module { #expect(names.contains(module), "\(names)") } else { #expect(!names.contains { $0.hasSuffix("Interface") || $0 == "ModuleHost" }, "\(names)") }
    }
}
