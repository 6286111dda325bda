// `large-app-child <manifest> host|runtime|decode|wired|typed [runs]`: the large benchmark's first-use measurement, in a
// fresh process that holds what an app holds (ModuleHost, the 1,000 generated modules, FoundationEssentials) and
// nothing of the benchmark's (Swinject, swift-dependencies, all of Foundation), whose conformance records every
// first-use scan of the Swift runtime would walk too. The modes: `largeAppChildMain` (LargeAppHarness/ChildMain.swift).
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LargeApp
import LargeAppHarness

await largeAppChildMain(linked: LinkedLargeModules.byName, callDirectly: callLargeModulesDirectly(count:)) { data in
    try JSONDecoder().decode(LargeTypedManifest.self, from: data).configurations.count
}
