import Testing

@testable import GestureRecognition

@Suite struct InlineListTests {
    static func list(_ values: [Double]) -> InlineList<Double?> {
        var list = InlineList<Double?>()
        for value in values { list.append(value) }
        return list
    }

    @Test func keepsWhatFitsAndSaysWhenFull() {
        var list = InlineList<Double?>()
        for value in 0..<InlineList<Double?>.capacity {
            let kept = list.append(Double(value))
            #expect(kept)
        }
        #expect(list.isFull)
        let keptWhenFull = list.append(99)
        #expect(!keptWhenFull, "a full list keeps nothing more")
        #expect(list.count == InlineList<Double?>.capacity)
        #expect(list.array == (0..<InlineList<Double?>.capacity).map { Double($0) })
    }

    @Test func removesAndTruncatesInOrder() {
        var list = Self.list([1, 2, 3, 4, 5])
        list.remove(at: 1)
        #expect(list.array == [1, 3, 4, 5])
        list.truncate(to: 2)
        #expect(list.array == [1, 3])
        list[1] = 7
        #expect(list[1] == 7)
        #expect(list.firstIndex { $0 == 7 } == 1)
        #expect(list.firstIndex { $0 == 3 } == nil)
        #expect(list.withElements { Array($0) } == [1, 7])
    }

    @Test func equalityLooksOnlyAtTheElements() {
        var shortened = Self.list([1, 2, 3])
        shortened.truncate(to: 2)
        #expect(shortened == Self.list([1, 2]), "what a removed element left behind does not count")
        #expect(shortened.hashValue == Self.list([1, 2]).hashValue)
        #expect(Self.list([1, 2]) != Self.list([2, 1]))
    }
}
