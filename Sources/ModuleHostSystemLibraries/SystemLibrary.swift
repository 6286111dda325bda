#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A C library of the system, loaded at run time by the first of its file names that loads (`dlopen`, its symbols
/// bound at once and kept local): how the package calls libcrypto, libxcrypt and libedit without their headers, so
/// it builds where the headers are missing, and a process loads each only when it first needs it.
///
/// A library once loaded stays loaded for the life of the process; the functions found in it may be kept.
public struct SystemLibrary: @unchecked Sendable {
    private let handle: UnsafeMutableRawPointer

    /// Loads the first of `names` that loads (`libcrypt.so.1`, then `libcrypt.so`, say); `nil` when none does.
    ///
    /// - Parameter names: the library's file names, the preferred first; each is found as `dlopen` finds it.
    public init?(firstOf names: [String]) {
        guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else { return nil }
        self.handle = handle
    }

    /// The library's function `name`.
    ///
    /// - Parameters:
    ///   - name: the C name of the function.
    ///   - type: its `@convention(c)` function type, which the caller vouches for.
    /// - Returns: the function, or `nil` when the library has no symbol of that name.
    public func function<Function>(_ name: String, as type: Function.Type) -> Function? {
        dlsym(handle, name).map { unsafeBitCast($0, to: type) }
    }

    /// The library's global variable `name`.
    ///
    /// - Parameters:
    ///   - name: the C name of the variable.
    ///   - type: its type, which the caller vouches for.
    /// - Returns: a pointer to the variable, or `nil` when the library has no symbol of that name.
    public func variable<Value>(_ name: String, of type: Value.Type) -> UnsafeMutablePointer<Value>? {
        dlsym(handle, name).map { $0.assumingMemoryBound(to: type) }
    }
}
