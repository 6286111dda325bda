// `shared-app-child <manifest> host|runtime|decode|wired [runs]`: first use of the shared-configuration app (the large
// app's modules, every one with the same configuration type), in a fresh process that holds what such an app holds
// and nothing of the other large app's. The modes: `largeAppChildMain` (LargeAppHarness/ChildMain.swift).
import LargeAppHarness
import SharedConfigApp

await largeAppChildMain(linked: LinkedSharedModules.byName, callDirectly: callSharedModulesDirectly(count:))
