import AuthInterface

/// Helpers for setting up users.
public enum AuthModuleTools {
    /// A new salted yescrypt (`$y$`) hash of `password` for the `passwordHash` of a configured
    /// user, made with the system's crypt(3) and a random salt from the operating system.
    public static func hashPassword(_ password: String) throws(AuthError) -> String {
        try PasswordHasher.hash(password)
    }
}
