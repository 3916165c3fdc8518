import Foundation

/// A PNG decoded to 8-bit RGBA pixels, enough to tell a drawn picture from a
/// blank one: 8-bit RGB or RGBA, not interlaced (what rsvg-convert writes),
/// with its own small inflate (RFC 1950/1951) since Foundation on Linux has none.
public struct PNGImage {
    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Row by row, four bytes (red, green, blue, alpha) a pixel.
    public var pixels: [UInt8]

    /// Why the bytes are not a PNG this decoder reads.
    public struct DecodeError: Error, CustomStringConvertible {
        /// What is wrong.
        public var description: String
    }

    /// Decodes `data`.
    public init(data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count > 8, bytes[0..<8].elementsEqual([137, 80, 78, 71, 13, 10, 26, 10]) else {
            throw DecodeError(description: "not a PNG: bad signature")
        }
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        var offset = 8
        var header: [UInt8] = []
        var compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = u32(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let start = offset + 8
            guard start + length + 4 <= bytes.count else { throw DecodeError(description: "truncated \(type) chunk") }
            let body = bytes[start..<(start + length)]
            if type == "IHDR" { header = Array(body) }
            if type == "IDAT" { compressed += body }
            if type == "IEND" { break }
            offset = start + length + 4
        }
        guard header.count == 13 else { throw DecodeError(description: "no IHDR chunk") }
        width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
        let bitDepth = header[8], colourType = header[9], interlace = header[12]
        guard bitDepth == 8, colourType == 2 || colourType == 6, interlace == 0 else {
            throw DecodeError(description: "unsupported PNG: depth \(bitDepth), colour type \(colourType), interlace \(interlace)")
        }
        guard compressed.count > 2 else { throw DecodeError(description: "no image data") }
        var inflater = Inflater(bytes: compressed, start: 2)  // skip the zlib header
        let raw = try inflater.inflate()
        let channels = colourType == 6 ? 4 : 3
        let stride = width * channels
        guard raw.count >= height * (stride + 1) else { throw DecodeError(description: "image data too short: \(raw.count) bytes") }
        var image = [UInt8](repeating: 0, count: height * stride)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            let source = row * (stride + 1) + 1
            for i in 0..<stride {
                let x = Int(raw[source + i])
                let a = i >= channels ? Int(image[row * stride + i - channels]) : 0
                let b = row > 0 ? Int(image[(row - 1) * stride + i]) : 0
                let c = row > 0 && i >= channels ? Int(image[(row - 1) * stride + i - channels]) : 0
                let predicted: Int
                switch filter {
                case 0: predicted = 0
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c
                    let pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw DecodeError(description: "bad filter type \(filter) in row \(row)")
                }
                image[row * stride + i] = UInt8((x + predicted) & 0xFF)
            }
        }
        if channels == 4 {
            pixels = image
        } else {
            pixels = []
            pixels.reserveCapacity(width * height * 4)
            for i in Swift.stride(from: 0, to: image.count, by: 3) { pixels += [image[i], image[i + 1], image[i + 2], 255] }
        }
    }

    /// The pixel at (x, y) as (red, green, blue, alpha).
    public func pixel(x: Int, y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }
}

/// A small inflate: stored, fixed and dynamic Huffman blocks.
struct Inflater {
    let bytes: [UInt8]
    var position: Int
    var bitBuffer = 0
    var bitCount = 0
    var output: [UInt8] = []

    init(bytes: [UInt8], start: Int) {
        self.bytes = bytes
        position = start
    }

    /// A canonical Huffman code: how many codes of each length, and the symbols in code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length > 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    mutating func bits(_ count: Int) throws -> Int {
        while bitCount < count {
            guard position < bytes.count else { throw PNGImage.DecodeError(description: "compressed data ends early") }
            bitBuffer |= Int(bytes[position]) << bitCount
            position += 1
            bitCount += 8
        }
        let value = bitBuffer & ((1 << count) - 1)
        bitBuffer >>= count
        bitCount -= count
        return value
    }

    mutating func decode(_ code: Huffman) throws -> Int {
        var value = 0, first = 0, index = 0
        for length in 1..<16 {
            value |= try bits(1)
            let count = code.counts[length]
            if value - count < first { return code.symbols[index + value - first] }
            index += count
            first = (first + count) << 1
            value <<= 1
        }
        throw PNGImage.DecodeError(description: "bad Huffman code")
    }

    static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
        2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    mutating func inflate() throws -> [UInt8] {
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1:
                let literal = Huffman(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
                let distance = Huffman(lengths: [Int](repeating: 5, count: 30))
                try block(literal: literal, distance: distance)
            case 2:
                let (literal, distance) = try dynamicCodes()
                try block(literal: literal, distance: distance)
            default: throw PNGImage.DecodeError(description: "bad block type")
            }
        }
        return output
    }

    mutating func stored() throws {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= bytes.count else { throw PNGImage.DecodeError(description: "stored block ends early") }
        let length = Int(bytes[position]) | Int(bytes[position + 1]) << 8
        position += 4
        guard position + length <= bytes.count else { throw PNGImage.DecodeError(description: "stored block ends early") }
        output += bytes[position..<(position + length)]
        position += length
    }

    mutating func dynamicCodes() throws -> (Huffman, Huffman) {
        let literalCount = try bits(5) + 257, distanceCount = try bits(5) + 1, codeLengthCount = try bits(4) + 4
        var codeLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengths[Self.codeLengthOrder[i]] = try bits(3) }
        let lengthCode = Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try decode(lengthCode)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw PNGImage.DecodeError(description: "repeat with no previous length") }
                lengths += [Int](repeating: previous, count: 3 + (try bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
            }
        }
        return (
            Huffman(lengths: Array(lengths[0..<literalCount])),
            Huffman(lengths: Array(lengths[literalCount..<(literalCount + distanceCount)]))
        )
    }

    mutating func block(literal: Huffman, distance: Huffman) throws {
        while true {
            let symbol = try decode(literal)
            if symbol < 256 { output.append(UInt8(symbol)); continue }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < Self.lengthBase.count else { throw PNGImage.DecodeError(description: "bad length symbol") }
            let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
            let distanceSymbol = try decode(distance)
            guard distanceSymbol < Self.distanceBase.count else { throw PNGImage.DecodeError(description: "bad distance symbol") }
            let back = Self.distanceBase[distanceSymbol] + (try bits(Self.distanceExtra[distanceSymbol]))
            guard back <= output.count else { throw PNGImage.DecodeError(description: "distance too far back") }
            let start = output.count - back
            for i in 0..<length { output.append(output[start + i]) }
        }
    }
}
