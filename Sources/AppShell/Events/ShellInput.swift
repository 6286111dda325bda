/// The shell's one reader of ``ShellEvents``: the command loop and the commands it runs take turns asking it for
/// the next event, so a password prompt inside a command and the loop's next line never race.
actor ShellInput {
    /// What one read gave.
    enum Input: Sendable, Equatable {
        case line(String)
        /// Ctrl-C ended the line (at the prompt, or at a password prompt): it was dropped.
        case interrupted
        /// A line longer than ``LineReader/defaultLimit`` bytes, skipped unread.
        case tooLong
        case endOfInput
        case signal(Int32)
    }

    private let events: ShellEvents
    private var iterator: AsyncStream<Input>.Iterator
    /// How many lines have been read, by the loop and by commands: the number of the last line read.
    private(set) var linesRead = 0

    init(events: ShellEvents) {
        self.events = events
        self.iterator = events.stream.makeAsyncIterator()
    }

    /// Asks for a line (shown as typed unless `echo` is false) and returns the next event: that line, the end of
    /// input, or a signal that came first.
    ///
    /// A cancelled caller (a command Ctrl-C interrupted) gets ``Input/interrupted``: nothing is read if it was
    /// cancelled before asking, and a read under way ends early. The events are awaited in a task of their own,
    /// which cancellation does not reach: it would end the stream for good.
    func next(echo: Bool = true) async -> Input {
        if Task.isCancelled { return .interrupted }
        events.requestLine(echo: echo)
        let event = await withTaskCancellationHandler {
            await Task { await self.receive() }.value
        } onCancel: { [events] in
            events.cancelRead()
        }
        switch event ?? .endOfInput {
        case .line(let text):
            linesRead += 1
            return LineReader.interruptions.take() ? .interrupted : .line(text)
        case .tooLong:
            linesRead += 1
            return .tooLong
        case let other: return other
        }
    }

    private func receive() async -> Input? {
        var iterator = self.iterator
        let event = await iterator.next(isolation: self)
        self.iterator = iterator
        return event
    }
}
