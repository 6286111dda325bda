#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

@_silgen_name("swift_demangle")
private func _swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?, _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?, _ outputBufferSize: UnsafeMutablePointer<Int>?, _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?

/// Readable Swift symbol names, from the Swift runtime's own demangler.
public enum SwiftDemangler {
    /// `symbol` demangled (`$s10ModuleHost…` to `ModuleHost.…`), or `symbol` itself when it is not a Swift name.
    public static func demangle(_ symbol: String) -> String {
        let demangled = symbol.withCString { name in _swiftDemangle(name, strlen(name), nil, nil, 0) }
        guard let demangled else { return symbol }
        defer { free(demangled) }
        return String(cString: demangled)
    }

    /// The type a nominal type descriptor symbol (`…Mn`) describes, like `GreeterPlugin.GreeterModule`, or `nil`.
    public static func describedType(_ symbol: String) -> String? {
        guard symbol.hasSuffix("Mn"), symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return nil }
        let text = demangle(symbol)
        let lead = "nominal type descriptor for "
        guard text.hasPrefix(lead) else { return nil }
        return String(text.dropFirst(lead.count))
    }

    /// The type a protocol conformance descriptor symbol (`…Mc`) declares a module, like `GreeterPlugin.GreeterModule`
    /// for its conformance to `ModuleHost.ModuleProtocol` (directly, or implied by a protocol that refines it), or `nil`.
    public static func moduleType(_ symbol: String) -> String? {
        guard symbol.hasSuffix("Mc"), symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return nil }
        let text = demangle(symbol)
        let lead = "protocol conformance descriptor for ", conformance = " : ModuleHost.ModuleProtocol in "
        guard text.hasPrefix(lead), let range = text.firstRange(of: conformance) else { return nil }
        return String(text[text.index(text.startIndex, offsetBy: lead.count)..<range.lowerBound])
    }
}
