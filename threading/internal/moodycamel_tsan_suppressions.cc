// ThreadSanitizer suppressions for the moodycamel_pool tests, built into
// their binaries (ThreadSanitizer reads __tsan_default_suppressions at start;
// other builds never call it).
//
// moodycamel::ConcurrentQueue reuses a block's slots once every element in
// it has been dequeued, and orders a consumer's last read of a slot before
// the producer's next write into it with a relaxed load followed by
// std::atomic_thread_fence(acquire). ThreadSanitizer does not model fences,
// so it reports that write and that read as a race, with moodycamel's
// enqueue on one side and its dequeue on the other. Only reports with a
// producer's enqueue on their stack are suppressed; every synchronization of
// moodycamel_pool itself (counts, idle word, mutexes) is still checked, and
// a task lost or run twice is caught by the tests' counts, not by
// ThreadSanitizer. strata::thread_pool needs no suppressions.
extern "C" const char* __tsan_default_suppressions() {
  return "race:moodycamel::ConcurrentQueue<*>::ImplicitProducer::enqueue\n"
         "race:moodycamel::ConcurrentQueue<*>::ExplicitProducer::enqueue\n";
}
