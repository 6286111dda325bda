print("app-shell")
