import Foundation

// Context for the shell benchmark: start with Foundation loaded and used (as app-shell has it), print, exit.
print("hello, world, \(ProcessInfo.processInfo.processIdentifier > 0 ? "with Foundation" : "")")
