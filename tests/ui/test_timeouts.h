#pragma once
// How long a GUI test waits for the work a window does in the background (loading a trace, importing ncu
// metrics, analysing, checking integrity) before it fails. A wait ends as soon as its signal comes: this
// only bounds a job that never finishes, with room for a loaded CI machine.
namespace gpuscope::ui::test {

inline constexpr int kTimeoutMs = 120'000;

}  // namespace gpuscope::ui::test
