import Glibc
import SystemCalls
import Testing

@Suite("FileDescriptor over a pipe")
struct FileDescriptorTests {
    func pipe() throws -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        try #require(Glibc.pipe(&ends) == 0, "pipe: \(Errno.current)")
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    @Test("what writeAll writes, read gives back, then 0 at the end of the file")
    func writeAllThenRead() throws {
        let (reader, writer) = try pipe()
        defer { try? reader.close() }
        let sent: [UInt8] = Array("gestures".utf8)
        try sent.withUnsafeBytes { bytes in try writer.writeAll(bytes) }
        try writer.close()
        var buffer = [UInt8](repeating: 0, count: 64)
        let got = try buffer.withUnsafeMutableBytes { bytes in try reader.read(into: bytes) }
        #expect(Array(buffer.prefix(got)) == sent)
        let end = try buffer.withUnsafeMutableBytes { bytes in try reader.read(into: bytes) }
        #expect(end == 0)
    }

    @Test("a descriptor that is closed throws EBADF on read, write and close")
    func closedDescriptorThrows() throws {
        let (reader, writer) = try pipe()
        try reader.close()
        try writer.close()
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(throws: Errno(rawValue: EBADF)) {
            _ = try buffer.withUnsafeMutableBytes { bytes in try reader.read(into: bytes) }
        }
        #expect(throws: Errno(rawValue: EBADF)) {
            _ = try buffer.withUnsafeBytes { bytes in try writer.write(bytes) }
        }
        #expect(throws: Errno(rawValue: EBADF)) { try reader.close() }
    }

    @Test("pollDescriptors says which end is ready, and 0 when the time runs out")
    func poll() throws {
        let (reader, writer) = try pipe()
        defer {
            try? reader.close()
            try? writer.close()
        }
        var entries = [pollfd(fd: reader.rawValue, events: Int16(POLLIN), revents: 0)]
        #expect(try pollDescriptors(&entries) { 0 } == 0)
        try [UInt8(1)].withUnsafeBytes { bytes in try writer.writeAll(bytes) }
        #expect(try pollDescriptors(&entries) { -1 } == 1)
        #expect(entries[0].revents & Int16(POLLIN) != 0)
    }
}
