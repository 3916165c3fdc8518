import Foundation
import GestureTraces

/// The version `gestures --version` prints, and the one place it is kept:
/// `Tools/package` names the Debian package after what the binary prints.
/// Raise it with each release, with its entry in CHANGELOG.md.
let gesturesVersion = "0.4.0"

/// `--version`'s text: the version, and the git commit a build from a checkout
/// was made from, when the build scripts stamped it (Tools/stamp-commit, which
/// Tools/package and Tools/install run): "0.4.0 (commit 55c674b1a2b3)".
let gesturesVersionText: String = {
    guard let commit = BuildStamp.commit(inExecutableAt: "/proc/self/exe") else { return gesturesVersion }
    return "\(gesturesVersion) (commit \(commit))"
}()

/// The git commit written into the binary after it is linked, as the ELF
/// section `.gestures.commit` (`objcopy --add-section`, by Tools/stamp-commit):
/// a section survives `strip`, and stamping after the build leaves every
/// object file as it was, so a new commit rebuilds nothing.
enum BuildStamp {
    /// The section's name.
    static let sectionName = ".gestures.commit"

    /// The text of the `.gestures.commit` section of the ELF file at `path`,
    /// or nil when the file is not a 64-bit little-endian ELF file or has no
    /// such section (a plain `swift build`).
    static func commit(inExecutableAt path: String) -> String? {
        guard let file = try? InputFile.open(path).handle else { return nil }
        defer { try? file.close() }
        func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
            guard count > 0, (try? file.seek(toOffset: offset)) != nil,
                let data = try? file.read(upToCount: count), data.count == count
            else { return nil }
            return Array(data)
        }
        func integer(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
        }
        // ELF64, little-endian: e_shoff at 0x28, e_shentsize, e_shnum and e_shstrndx at 0x3A-0x3F.
        guard let header = read(0, 64), header[0..<4].elementsEqual([0x7F, 0x45, 0x4C, 0x46]),
            header[4] == 2, header[5] == 1
        else { return nil }
        let sectionsAt = integer(header, 0x28, 8)
        let entrySize = Int(integer(header, 0x3A, 2)), count = Int(integer(header, 0x3C, 2))
        let namesIndex = Int(integer(header, 0x3E, 2))
        guard entrySize >= 64, count > 0, count < 4096, namesIndex < count,
            let table = read(sectionsAt, entrySize * count)
        else { return nil }
        // Each section header: sh_name (4 bytes) at 0, sh_offset (8) at 24, sh_size (8) at 32.
        func section(_ index: Int) -> (name: Int, offset: UInt64, size: Int) {
            let base = index * entrySize
            return (Int(integer(table, base, 4)), integer(table, base + 24, 8), Int(integer(table, base + 32, 8)))
        }
        let names = section(namesIndex)
        guard names.size < 1 << 20, let nameBytes = read(names.offset, names.size) else { return nil }
        let wanted = Array(sectionName.utf8)
        for index in 0..<count {
            let candidate = section(index)
            let end = candidate.name + wanted.count
            guard end < nameBytes.count, nameBytes[candidate.name..<end].elementsEqual(wanted), nameBytes[end] == 0,
                candidate.size <= 256, let text = read(candidate.offset, candidate.size)
            else { continue }
            let commit = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return commit.isEmpty ? nil : commit
        }
        return nil
    }
}
