import Foundation

/// The lines of a stream such as standard input, each at most
/// `maximumLineBytes` long: a longer line is skipped (and reported as such),
/// never held whole, so a 50 MB line costs at most the limit in memory.
///
///     let lines = InputLines(FileHandle.standardInput, maximumLineBytes: 4096)
///     while let line = lines.next() { ... }
public final class InputLines {
    /// One line of the stream.
    public enum Line: Hashable, Sendable {
        /// A line, without its newline (or a carriage return before it).
        case text(String)
        /// Line `number` (1-based) was longer than the limit and was skipped.
        case tooLong(number: Int)
    }

    private let reader: LineReader
    private var skipped = 0
    /// The longest line returned as text, in bytes.
    public let maximumLineBytes: Int

    /// The lines of `handle`, read as they arrive.
    public init(_ handle: FileHandle, maximumLineBytes: Int) {
        self.maximumLineBytes = maximumLineBytes
        reader = LineReader(
            handle: handle, maximumLineBytes: maximumLineBytes, maximumTotalBytes: .max,
            chunkSize: max(4096, maximumLineBytes + 1))
    }

    /// The next line, or nil at the end of the stream (or when it cannot be read).
    public func next() -> Line? {
        do {
            guard let text = try reader.nextLine({ String(decoding: $0, as: UTF8.self) }) else { return nil }
            return .text(text)
        } catch let error as TraceError where error.kind == .lineTooLong(limit: maximumLineBytes) {
            skipped += 1
            let number = reader.lineNumber + skipped
            do { try reader.skipLine() } catch { return nil }
            return .tooLong(number: number)
        } catch {
            return nil
        }
    }
}
