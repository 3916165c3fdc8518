import Testing

@testable import Validation

@Suite struct SlowPatternMemoryTests {
    @Test func remembersAPattern() {
        let memory = SlowPatternMemory()
        #expect(!memory.contains("(a|a)+"))
        memory.remember("(a|a)+")
        #expect(memory.contains("(a|a)+"))
    }

    @Test func forgetsTheLeastRecentlyUsedPatternPastItsCapacity() {
        let memory = SlowPatternMemory(capacity: 2)
        memory.remember("a")
        memory.remember("b")
        #expect(memory.contains("a"))  // "b" is now the least recently used
        memory.remember("c")
        #expect(memory.count == 2)
        #expect(memory.contains("a"))
        #expect(!memory.contains("b"))
        #expect(memory.contains("c"))
    }

    @Test func forgetsPatternsPastItsByteBound() {
        let memory = SlowPatternMemory(capacity: 100, capacityBytes: 10)
        memory.remember("aaaaaa")
        memory.remember("bbbbbb")
        #expect(!memory.contains("aaaaaa"))
        #expect(memory.contains("bbbbbb"))
    }

    @Test func doesNotRememberAPatternLargerThanItsByteBound() {
        let memory = SlowPatternMemory(capacity: 100, capacityBytes: 4)
        memory.remember("abcde")
        #expect(memory.count == 0)
    }

    @Test func rememberingTwiceKeepsOneEntry() {
        let memory = SlowPatternMemory(capacity: 4, capacityBytes: 4)
        memory.remember("ab")
        memory.remember("ab")
        memory.remember("cd")
        #expect(memory.count == 2)
    }

    @Test func staysWithinItsBoundsUnderConcurrentUse() async {
        let memory = SlowPatternMemory(capacity: 16)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<200 {
                        memory.remember("p\(task)-\(index)")
                        _ = memory.contains("p\(task)-\(index / 2)")
                    }
                }
            }
        }
        #expect(memory.count == 16)
    }
}
