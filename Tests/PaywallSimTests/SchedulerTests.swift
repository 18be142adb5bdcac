import SimKernel
import Testing

@Suite struct SchedulerTests {
    @Test func eventsRunInTimeOrderThenInTheOrderTheyWereScheduled() {
        let scheduler = Scheduler()
        var ran: [String] = []
        scheduler.schedule(after: .millis(300)) { ran.append("late") }
        scheduler.schedule(after: .millis(100)) { ran.append("first at 100") }
        scheduler.schedule(after: .millis(100)) { ran.append("second at 100") }
        scheduler.schedule(after: .zero) { ran.append("now") }
        let start = scheduler.now
        #expect(scheduler.runUntilIdle() == 4)
        #expect(ran == ["now", "first at 100", "second at 100", "late"])
        #expect(scheduler.now == start + .millis(300))
    }

    @Test func aCancelledEventNeverRuns() {
        let scheduler = Scheduler()
        var ran = false
        let id = scheduler.schedule(after: .seconds(1)) { ran = true }
        scheduler.cancel(id)
        #expect(scheduler.isIdle)
        scheduler.runUntilIdle()
        #expect(!ran)
    }

    /// Idle exactly when no live foreground event is pending, whatever was cancelled (at the head or behind it) or runs
    /// in the background: `isIdle` reads the foreground set alone, and agrees with `nextDue` after every change.
    @Test func idleExactlyWhenNoLiveForegroundEventIsPending() {
        let scheduler = Scheduler()
        var draws = SeededGenerator(seed: 16)
        var scheduled: [Scheduler.EventID] = []
        var idleSeen = 0
        for _ in 0..<400 {
            switch draws.next() % 4 {
            case 0, 1:
                let delay = SimDuration.millis(Int64(draws.next() % 50))
                scheduled.append(scheduler.schedule(after: delay, background: draws.next() % 3 == 0) {})
            case 2 where !scheduled.isEmpty:
                scheduler.cancel(scheduled.remove(at: Int(draws.next() % UInt64(scheduled.count))))
            default:
                scheduler.advance(by: .millis(Int64(draws.next() % 20)))
            }
            #expect(scheduler.isIdle == (scheduler.nextDue == nil))
            if scheduler.isIdle { idleSeen += 1 }
        }
        #expect(idleSeen > 0 && idleSeen < 400)
        scheduler.runUntilIdle()
        #expect(scheduler.isIdle && scheduler.nextDue == nil)
    }

    @Test func runUntilStopsAtTheInstantAndLeavesLaterEventsPending() {
        let scheduler = Scheduler()
        var ran: [Int] = []
        scheduler.schedule(after: .seconds(1)) { ran.append(1) }
        scheduler.schedule(after: .seconds(5)) { ran.append(5) }
        let start = scheduler.now
        scheduler.run(until: start + .seconds(2))
        #expect(ran == [1])
        #expect(scheduler.now == start + .seconds(2))
        #expect(scheduler.nextDue == start + .seconds(5))
    }

    @Test func eventsScheduledWhileRunningJoinTheQueue() {
        let scheduler = Scheduler()
        var ran: [String] = []
        scheduler.schedule(after: .seconds(1)) {
            ran.append("outer")
            scheduler.schedule(after: .seconds(1)) { ran.append("inner") }
        }
        scheduler.runUntilIdle()
        #expect(ran == ["outer", "inner"])
        #expect(scheduler.now == .worldStart + .seconds(2))
    }

    @Test func theSameSeedDrawsTheSameNumbers() {
        var first = SeededGenerator(seed: 42)
        var second = SeededGenerator(seed: 42)
        var other = SeededGenerator(seed: 43)
        let a = (0..<5).map { _ in first.next() }
        #expect(a == (0..<5).map { _ in second.next() })
        #expect(a != (0..<5).map { _ in other.next() })
    }

    @Test(arguments: LatencyProfile.all)
    func latencyStaysWithinTheProfile(_ profile: LatencyProfile) {
        var random = SeededGenerator(seed: 9)
        for _ in 0..<200 {
            let delay = profile.delay(for: .backendRequest, using: &random)
            #expect(delay >= .zero && delay <= .seconds(20))
            if profile == .none { #expect(delay == .zero) }
        }
    }
}

@Suite struct CalendarPeriodTests {
    @Test(arguments: [("P1M", "month"), ("P1W", "week"), ("P3D", "3 days"), ("P1Y", "year"), ("P6M", "6 months")])
    func parsesISO8601Periods(_ text: String, _ words: String) throws {
        let period = try #require(CalendarPeriod(iso8601: text))
        #expect(period.description == words)
        #expect(period.iso8601 == text)
    }

    @Test(arguments: ["", "P", "1M", "PXM", "P0M", "P1Q", "P-1D"])
    func refusesWhatIsNotAPeriod(_ text: String) {
        #expect(CalendarPeriod(iso8601: text) == nil)
    }

    @Test func aMonthlyPlanBoughtOnJanuary31RenewsOnTheLastDayOfFebruary() {
        // 2026-01-31 10:00 UTC
        let start = SimInstant(milliseconds: 1_769_853_600_000)
        #expect(start.description == "2026-01-31 10:00:00.000")
        let renewal = CalendarPeriod(unit: .month, value: 1).added(to: start)
        #expect(renewal.description == "2026-02-28 10:00:00.000")
        #expect(CalendarPeriod(unit: .year, value: 1).added(to: start).description == "2027-01-31 10:00:00.000")
        #expect(CalendarPeriod(unit: .week, value: 1).added(to: start).description == "2026-02-07 10:00:00.000")
    }

    @Test func theWorldStartsOnAMondayMorning() {
        #expect(SimInstant.worldStart.description == "2026-03-02 09:00:00.000")
    }
}
