package drive

// The tests run the engine in synctest bubbles, whose virtual clock only
// the runtime's timers move: a real nanosleep would send early.
func init() { fineSleep = nil }
