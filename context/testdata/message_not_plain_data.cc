// A message type that owns memory: messages are copied into reused buffers
// and dropped at the refresh without destructors. The sender's context is
// made and run, so nothing of the channel adds an error under Strata's
// message (message_not_plain_data_received: the same for a receiver).
#include <string>

#include "context/testdata/fixture.h"

struct note {
  std::string text;
};

struct writer {
  template <typename Data>
  void process(Data& data) const {
    data.for_each(
        [&](strata::entity_id self, const strata::testing::position&) {
          data.send(self, self, note{"hello"});
        });
  }
};

constexpr auto settings =
    settings_with(strata::system_signature::make(strata::tag<writer>)
                      .read(ct::position)
                      .sends<note>());

int main() { run_once<settings>(); }
