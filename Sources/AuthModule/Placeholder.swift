import ModuleHost
