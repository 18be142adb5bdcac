#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one wall-clock reading in the program: the terminal needs it to pace virtual time.
/// Monotonic, so a change of the system clock never makes the simulation jump.
enum MonotonicClock {
    static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
