import Foundation

/// Reads a file or a byte buffer line by line through one reused buffer, so
/// memory stays bounded by the chunk size plus the longest allowed line.
final class LineReader {
    private enum Source {
        case file(FileHandle)
        case memory
    }

    private let source: Source
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    private let chunkSize: Int
    private let maximumLineBytes: Int
    private let maximumTotalBytes: Int
    /// Bytes taken from the source so far.
    private(set) var bytesRead = 0
    /// The 1-based number of the line last returned.
    private(set) var lineNumber = 0
    /// Whether the last line returned had no newline after it.
    private(set) var lastLineWasUnterminated = false

    init(handle: FileHandle, maximumLineBytes: Int, maximumTotalBytes: Int, chunkSize: Int = 1 << 20) {
        source = .file(handle)
        self.chunkSize = chunkSize
        self.maximumLineBytes = maximumLineBytes
        self.maximumTotalBytes = maximumTotalBytes
        buffer = []
    }

    init(bytes: some Collection<UInt8>, maximumLineBytes: Int) {
        source = .memory
        buffer = Array(bytes)
        end = buffer.count
        atEnd = true
        chunkSize = 0
        self.maximumLineBytes = maximumLineBytes
        maximumTotalBytes = Int.max
        bytesRead = buffer.count
    }

    /// Calls `body` with the next line (without its newline or a trailing
    /// carriage return); returns nil at the end of the input.
    func nextLine<R>(_ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        while true {
            let newline = nextNewline()
            if let newline {
                guard newline - start <= maximumLineBytes else {
                    throw TraceError(.lineTooLong(limit: maximumLineBytes), line: lineNumber + 1)
                }
                lineNumber += 1
                let lineStart = start
                start = newline + 1
                return try line(from: lineStart, to: newline, body)
            }
            if end - start > maximumLineBytes {
                throw TraceError(.lineTooLong(limit: maximumLineBytes), line: lineNumber + 1)
            }
            if atEnd {
                guard end > start else { return nil }
                lineNumber += 1
                lastLineWasUnterminated = true
                let lineStart = start
                start = end
                return try line(from: lineStart, to: end, body)
            }
            try fill()
        }
    }

    /// The offset in the buffer of the next newline after `start`, if it holds one.
    /// The corresponding C function is `memchr`.
    private func nextNewline() -> Int? {
        buffer.withUnsafeBytes { bytes in
            guard end > start, let base = bytes.baseAddress, let found = memchr(base + start, 0x0A, end - start) else { return nil }
            return UnsafeRawPointer(found) - base
        }
    }

    /// Discards everything up to and including the next newline (or to the
    /// end), however long, holding at most one chunk; for a line that was too long.
    func skipLine() throws {
        while true {
            let newline = nextNewline()
            if let newline {
                start = newline + 1
                return
            }
            start = end
            if atEnd { return }
            try fill()
        }
    }

    private func line<R>(from lineStart: Int, to lineEnd: Int, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        try buffer.withUnsafeBytes { bytes in
            var stop = lineEnd
            if stop > lineStart && bytes[stop - 1] == 0x0D { stop -= 1 }
            return try body(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<stop]))
        }
    }

    private func fill() throws {
        guard case .file(let handle) = source else { atEnd = true; return }
        if start > 0 {
            // Move the partial line to the front.
            let count = end - start
            buffer.withUnsafeMutableBytes { bytes in
                if count > 0 { memmove(bytes.baseAddress!, bytes.baseAddress! + start, count) }
            }
            start = 0
            end = count
        }
        if buffer.count < end + chunkSize { buffer += [UInt8](repeating: 0, count: end + chunkSize - buffer.count) }
        let got = buffer.withUnsafeMutableBytes { bytes in
            read(handle.fileDescriptor, bytes.baseAddress! + end, chunkSize)
        }
        if got < 0 { throw TraceError(.unreadable(reason: String(cString: strerror(errno)))) }
        if got == 0 { atEnd = true; return }
        end += got
        bytesRead += got
        if bytesRead > maximumTotalBytes {
            throw TraceError(.fileTooLarge(bytes: nil, limit: maximumTotalBytes))
        }
    }
}
