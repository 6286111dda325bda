import Foundation
@testable import ModuleHost
@testable import ModuleHostBinaryImage
import Testing

@Suite("Plugin symbols and ABI marks")
struct SymbolTests {
    @Test func swiftNamesAreDemangledAndOthersKept() {
        #expect(SwiftDemangler.demangle("$s10ModuleHost0A7ManagerCMn") == "nominal type descriptor for ModuleHost.ModuleManager")
        #expect(SwiftDemangler.demangle("plain_c_symbol") == "plain_c_symbol")
        #expect(SwiftDemangler.describedType("$s4Demo6WidgetCMn") == "Demo.Widget")
        #expect(SwiftDemangler.describedType("$s4Demo5OuterV5InnerOMn") == "Demo.Outer.Inner")
        #expect(SwiftDemangler.describedType("$s4Demo6WidgetCN") == nil)
    }

    /// A conformance descriptor to ModuleProtocol names a module type; one to another protocol, or another kind of
    /// symbol, does not.
    @Test func conformanceDescriptorsToModuleProtocolNameModules() {
        #expect(SwiftDemangler.moduleType("$s4Demo6WidgetC10ModuleHost0C8ProtocolAAMc") == "Demo.Widget")
        #expect(SwiftDemangler.moduleType("$s13GreeterPlugin0A6ModuleC0C4Host0C8ProtocolAAMc") == "GreeterPlugin.GreeterModule")
        #expect(SwiftDemangler.moduleType("$s13GreeterPlugin0A6ModuleCAA15GreetingServiceAAMc") == nil, "another protocol")
        #expect(SwiftDemangler.moduleType("$s4Demo6WidgetCMn") == nil, "a type descriptor")
        #expect(SwiftDemangler.moduleType("plain_c_symbolMc") == nil)
    }

    @Test func marksAreParsedStrictly() {
        let digest = String(repeating: "ab", count: 32), tail = "x86_64-unknown-linux-gnu Swift version 6.3.1 (swift-6.3.1-RELEASE)"
        let expected = ABIMark.Identity(digest: digest, triple: "x86_64-unknown-linux-gnu", compiler: "Swift version 6.3.1 (swift-6.3.1-RELEASE)")
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest) \(tail)".utf8)) == expected)
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest) \(tail)\n".utf8) + [0, 0]) == expected)
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest.uppercased()) \(tail)".utf8)) == nil)
        #expect(ABIMark.identity(in: Array("MHABI1 \(digest)".utf8)) == nil, "the MHABI1 mark has no compiler: refused")
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest)".utf8)) == nil)
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest) x86_64-unknown-linux-gnu".utf8)) == nil, "no compiler")
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest.dropLast()) \(tail)".utf8)) == nil)
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest) \(tail)\u{7}".utf8)) == nil, "a control character")
        #expect(ABIMark.identity(in: Array("MHABI2 \(digest) \(tail) \(String(repeating: "x", count: 500))".utf8)) == nil, "too long")
        #expect(ABIMark.identity(in: Array(ABIIdentity.mark.utf8)) == .host, "the host's own mark")
    }

    @Test func aHostThatExportsNothingIsTheHostsProblem() throws {
        let needs = ["$s10ModuleHost0A7ManagerC6bridgeAA0A6BridgeCvg", "puts"]
        #expect(HostExports.verdict(undefined: needs, isExported: { _ in false }) == .hostExportsNothing)
        #expect(HostExports.verdict(undefined: needs, isExported: { _ in true }) == .complete)
        #expect(HostExports.verdict(undefined: ["puts"], isExported: { _ in false }) == .complete, "no ModuleHost symbol needed")
        #expect(HostExports.verdict(undefined: needs, isExported: { $0 == HostExports.probe }) == .missing([needs[0]]))
        let host = PluginInspector.Host(identity: .host, isExported: { _ in false })
        #expect { try PluginInspector.checkExports(needs, host: host, path: "/p/lib.so", library: "lib.so") } throws: { error in
            let error = error as? PluginError
            return error?.code == .hostExportsNoSymbols && error?.message.contains("-Xlinker --export-dynamic") == true
                && error?.message.contains("this host does not export its ModuleHost symbols") == true
        }
        let partial = PluginInspector.Host(identity: .host, isExported: { $0 == HostExports.probe })
        #expect { try PluginInspector.checkExports(needs, host: partial, path: "/p/lib.so", library: "lib.so") } throws: { error in
            (error as? PluginError)?.message.contains("ModuleHost.ModuleManager.bridge.getter") == true
        }
    }

    /// The types of the libraries built on ModuleHost cross the plugin boundary too (a plugin module may resolve the
    /// shell's `HostEnvironment`, or guard its routes as a `ModuleRouteHandler`): a plugin that needs their symbols
    /// from a host that lacks them is refused, and so is one that carries its own copy of one, naming it. Found by
    /// an outside review when ModuleHostState moved out of ModuleHost; ModuleHostRouting followed.
    @Test(arguments: [
        ("ModuleHostState", "$s15ModuleHostState0B11EnvironmentV14stateDirectory20FoundationEssentials3URLVvg",
         "ModuleHostState.HostEnvironment.stateDirectory.getter"),
        ("ModuleHostRouting", "$s17ModuleHostRouting0A6RouterC4open_4fromAC6ResultVSS_0aB012RouteRequestV6SourceOtYaAA0H5ErrorVYKF",
         "ModuleHostRouting.ModuleRouter.open"),
    ])
    func aLibraryBuiltOnModuleHostIsTheHostsLikeModuleHost(library: String, symbol: String, named: String) throws {
        #expect(HostExports.verdict(undefined: [symbol], isExported: { $0 == HostExports.probe }) == .missing([symbol]))
        #expect(HostExports.verdict(undefined: [symbol], isExported: { _ in true }) == .complete)
        // A host that does not link the library at all: the refusal names the library, not ModuleHost.
        let withoutIt = PluginInspector.Host(identity: .host, isExported: { $0 == HostExports.probe })
        #expect { try PluginInspector.checkExports([symbol], host: withoutIt, path: "/p/lib.so", library: "lib.so") } throws: { error in
            let message = (error as? PluginError)?.message ?? ""
            return message.contains("this host's \(library) does not export") && message.contains("is \(library) not linked into the host")
        }
        #expect { try PluginInspector.checkOwnModuleHost([symbol, "puts"], path: "/p/lib.so", library: "lib.so") } throws: { error in
            let error = error as? PluginError
            return error?.code == .bundlesModuleHost && error?.message.contains("its own copy of \(library)") == true
                && error?.message.contains(named) == true
        }
    }

    @Test func aPluginCarryingModuleHostItselfIsRefusedNamingIt() throws {
        let manager = "$s10ModuleHost0A7ManagerCMn"
        #expect { try PluginInspector.checkOwnModuleHost([manager], path: "/p/lib.so", library: "lib.so") } throws: { error in
            (error as? PluginError)?.message.contains("its own copy of ModuleHost (") == true
        }
    }
}
