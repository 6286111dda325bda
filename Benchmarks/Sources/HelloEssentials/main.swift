// The shell benchmark's baseline: the smallest program that loads FoundationEssentials, as app-shell does on Linux.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

print("hello, world", Date().timeIntervalSince1970 > 0 ? "" : "(before 1970)")
