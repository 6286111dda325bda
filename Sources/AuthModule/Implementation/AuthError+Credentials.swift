import AuthInterface

extension AuthError {
    /// An unknown user name; the message is the same as for a wrong password.
    static let unknownUser = AuthError(.unknownUser, invalidCredentialsMessage)
    /// A wrong password; the message is the same as for an unknown user.
    static let wrongPassword = AuthError(.wrongPassword, invalidCredentialsMessage)
}
