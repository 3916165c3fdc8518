import Foundation
import GestureTraces
import Testing

/// JSON stroke files at their limits (issue 26, classes 3 and 8).
@Suite struct StrokeFileLimitsTests {
    static func stroke(points count: Int, name: String = "z") -> Data {
        let points = (0..<count).map { "[\($0 % 1000),\($0 % 7)]" }.joined(separator: ",")
        return Data(#"{"name":"\#(name)","points":[\#(points)]}"#.utf8)
    }

    @Test("a stroke of the documented 100,000 points is read; one more is refused with the count and the limit")
    func pointLimit() throws {
        #expect(try StrokeFile.load(data: Self.stroke(points: StrokeFile.maximumPoints), source: "s.json")[0].points.count == 100_000)
        #expect {
            try StrokeFile.load(data: Self.stroke(points: StrokeFile.maximumPoints + 1), source: "s.json")
        } throws: { error in
            "\(error)" == "s.json: it has 100001 points, over the limit of 100000"
        }
    }

    @Test("points may hold a time after x and y; a point without y is refused with its index")
    func pointShapes() throws {
        let read = try StrokeFile.load(data: Data(#"[{"points":[[1,2,30],[4,5,60]]}]"#.utf8), source: "t.json")
        #expect(read == [StrokeFile(name: nil, points: [.init(x: 1, y: 2), .init(x: 4, y: 5)])])
        #expect { try StrokeFile.load(data: Data(#"{"points":[[1,2],[3]]}"#.utf8), source: "t.json") } throws: { error in
            "\(error)" == "t.json: points[1] is not a pair of finite numbers"
        }
    }

    @Test("a stroke name with control characters is refused")
    func controlCharacters() {
        #expect(throws: (any Error).self) {
            try StrokeFile.load(data: Self.stroke(points: 3, name: #"a\u001b]0;x\u0007"#), source: "c.json")
        }
    }
}
