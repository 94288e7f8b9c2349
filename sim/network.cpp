#include "sim/network.hpp"

#include <algorithm>

#include <caf/io/network/test_multiplexer.hpp>
#include <caf/io/scribe.hpp>

namespace cafka::sim {

namespace {

using caf::io::accept_handle;
using caf::io::connection_handle;

// Closes our end of a connection as a peer's reset would: the owning broker (the
// middleman's BASP broker) gets connection_closed_msg. False (nothing done) while no
// broker owns the end yet: a connect hands the new scribe to BASP in a message, and a
// scribe closed before BASP took it would leave that connect pending forever (the
// middleman actor then parks every later connect to that address behind it).
bool close_end(host& h, int64_t id) {
  auto& mpx = h.network();
  auto hdl = connection_handle::from_int(id);
  auto ptr = mpx.impl_ptr(hdl);
  if (!ptr || ptr->parent() == nullptr)
    return false;
  mpx.stopped_reading(hdl) = true;
  mpx.passive_mode(hdl) = true;
  ptr->io_failure(&mpx, caf::io::network::operation::read);
  return true;
}

bool alive(const std::vector<network::slot>& slots, size_t index, uint64_t generation) {
  return index < slots.size() && slots[index].h != nullptr && slots[index].generation == generation;
}

} // namespace

void network::listen(std::vector<slot>& slots, size_t slot_index, uint16_t port) {
  auto id = next_id_++;
  slots[slot_index].h->network().provide_acceptor(port, accept_handle::from_int(id));
  listeners_.push_back(listener{slot_index, slots[slot_index].generation, port, id});
}

std::vector<std::string> network::wire(std::vector<slot>& slots, caf::timespan now, std::mt19937_64& rng,
                                       std::optional<size_t> stepped) {
  auto concerns = [&](size_t host) { return !stepped || *stepped == host; };
  std::vector<std::string> events;
  // Ends to close once their broker owns them.
  closing_.erase(std::remove_if(closing_.begin(), closing_.end(),
                                [&](const end& e) {
                                  return !alive(slots, e.host, e.generation) || close_end(*slots[e.host].h, e.id);
                                }),
                 closing_.end());
  // Hand over what was taken; refuse what was taken from a listener that is gone.
  for (auto& c : connections_) {
    if (c.taken || !concerns(c.client) || !alive(slots, c.client, c.client_generation))
      continue;
    auto& client_mpx = slots[c.client].h->network();
    if (client_mpx.has_pending_scribe(c.address, c.port))
      continue;
    c.taken = true;
    auto what = slots[c.client].h->name() + " -> " + c.address + ":" + std::to_string(c.port);
    if (alive(slots, c.server, c.server_generation)) {
      slots[c.server].h->network().add_pending_connect(accept_handle::from_int(c.accept_id),
                                                       connection_handle::from_int(c.server_id));
      events.push_back(what + " connected");
    } else {
      closing_.push_back(end{c.client, c.client_generation, c.client_id});
      events.push_back(what + " refused");
    }
  }
  // Forget connections whose ends are both gone or that were refused.
  connections_.erase(std::remove_if(connections_.begin(), connections_.end(),
                                    [&](const connection& c) {
                                      return !alive(slots, c.client, c.client_generation)
                                             || (c.taken && !alive(slots, c.server, c.server_generation));
                                    }),
                     connections_.end());
  // One prepared connection per (host, live listener elsewhere) that has none waiting.
  for (size_t client = 0; client < slots.size(); ++client) {
    if (!slots[client].h || !concerns(client))
      continue;
    auto& client_host = *slots[client].h;
    for (auto& l : listeners_) {
      if (l.server == client || !alive(slots, l.server, l.generation))
        continue;
      auto& server_host = *slots[l.server].h;
      if (client_host.network().has_pending_scribe(server_host.address(), l.port))
        continue;
      connection c{client, slots[client].generation, l.server, l.generation, server_host.address(), l.port,
                   l.accept_id, next_id_++, next_id_++, false, {}, {}};
      // Each end gets buffers of its own (not prepare_connection's shared pair), so
      // that bytes move between them only in pump(), where links can hold them.
      client_host.network().provide_scribe(c.address, c.port, connection_handle::from_int(c.client_id));
      connections_.push_back(std::move(c));
    }
  }
  pump(slots, now, rng, stepped);
  propagate_closes(slots, events, stepped);
  return events;
}

namespace {

// Whether the end `id` of host `h` is owned by a broker now (sets `owned` the first time),
// and whether that broker closed it since.
bool closed_by_its_broker(host& h, int64_t id, bool& owned) {
  auto& mpx = h.network();
  auto hdl = connection_handle::from_int(id);
  auto& ptr = mpx.impl_ptr(hdl);
  bool attached = ptr && ptr->parent() != nullptr;
  if (attached && !mpx.stopped_reading(hdl)) {
    owned = true;
    return false;
  }
  return owned;
}

} // namespace

void network::propagate_closes(std::vector<slot>& slots, std::vector<std::string>& events,
                               std::optional<size_t> stepped) {
  connections_.erase(
    std::remove_if(connections_.begin(), connections_.end(),
                   [&](connection& c) {
                     // Only a host that ran can have closed an end (or one closed before).
                     if (!c.taken || (stepped && !c.close_pending && *stepped != c.client && *stepped != c.server)
                         || !alive(slots, c.client, c.client_generation)
                         || !alive(slots, c.server, c.server_generation))
                       return false;
                     auto& client = *slots[c.client].h;
                     auto& server = *slots[c.server].h;
                     bool client_closed = closed_by_its_broker(client, c.client_id, c.client_owned);
                     bool server_closed = closed_by_its_broker(server, c.server_id, c.server_owned);
                     if (!client_closed && !server_closed)
                       return false;
                     // The FIN follows the bytes sent before it, over a link that is not cut.
                     auto closer = client_closed ? c.client : c.server;
                     auto peer = client_closed ? c.server : c.client;
                     auto& queue = client_closed ? c.to_server : c.to_client;
                     if (is_cut(closer, peer) || !queue.empty()) {
                       c.close_pending = true;
                       return false;
                     }
                     auto what = slots[c.client].h->name() + " -> " + c.address + ":" + std::to_string(c.port);
                     events.push_back(what + " closed by " + slots[closer].h->name());
                     if (!client_closed)
                       closing_.push_back(end{c.client, c.client_generation, c.client_id});
                     if (!server_closed)
                       closing_.push_back(end{c.server, c.server_generation, c.server_id});
                     return true;
                   }),
    connections_.end());
}

void network::pump(std::vector<slot>& slots, caf::timespan now, std::mt19937_64& rng,
                   std::optional<size_t> stepped) {
  // Takes what `from` wrote into the queue of that direction (with its delivery time),
  // then delivers every chunk that is due, oldest first.
  // Only a host that ran has written bytes.
  auto move = [&](host& from, int64_t from_id, host& to, int64_t to_id, std::deque<connection::chunk>& queue,
                  std::pair<size_t, size_t> direction) {
    if (!stepped || *stepped == direction.first) { // only a host that ran has written bytes
      auto& out = from.network().output_buffer(connection_handle::from_int(from_id));
      if (!out.empty()) {
        auto due = now;
        if (auto d = delays_.find(direction); d != delays_.end())
          due += caf::timespan{
            std::uniform_int_distribution<int64_t>{d->second.first.count(), d->second.second.count()}(rng)};
        if (!queue.empty() && queue.back().due > due)
          due = queue.back().due; // never overtake earlier bytes of this connection
        queue.push_back(connection::chunk{due, std::move(out)});
        out.clear();
      }
    }
    if (queue.empty() || queue.front().due > now)
      return;
    auto& in = to.network().virtual_network_buffer(connection_handle::from_int(to_id));
    while (!queue.empty() && queue.front().due <= now) {
      in.insert(in.end(), queue.front().bytes.begin(), queue.front().bytes.end());
      queue.pop_front();
    }
  };
  for (auto& c : connections_) {
    if (!c.taken || !alive(slots, c.client, c.client_generation) || !alive(slots, c.server, c.server_generation))
      continue;
    if (!is_cut(c.client, c.server))
      move(*slots[c.client].h, c.client_id, *slots[c.server].h, c.server_id, c.to_server, {c.client, c.server});
    if (!is_cut(c.server, c.client))
      move(*slots[c.server].h, c.server_id, *slots[c.client].h, c.client_id, c.to_client, {c.server, c.client});
  }
}

void network::cut(size_t from, size_t to) { cuts_.emplace(from, to); }

void network::heal(size_t from, size_t to) { cuts_.erase({from, to}); }

bool network::is_cut(size_t from, size_t to) const { return cuts_.count({from, to}) > 0; }

void network::delay(size_t from, size_t to, caf::timespan min, caf::timespan max) {
  if (min.count() == 0 && max.count() == 0)
    delays_.erase({from, to});
  else
    delays_[{from, to}] = {min, max};
}

size_t network::drop(std::vector<slot>& slots, size_t a, size_t b) {
  size_t dropped = 0;
  auto between = [&](const connection& c) {
    return c.taken && ((c.client == a && c.server == b) || (c.client == b && c.server == a));
  };
  for (auto& c : connections_) {
    if (!between(c))
      continue;
    ++dropped;
    if (alive(slots, c.client, c.client_generation))
      closing_.push_back(end{c.client, c.client_generation, c.client_id});
    if (alive(slots, c.server, c.server_generation))
      closing_.push_back(end{c.server, c.server_generation, c.server_id});
  }
  connections_.erase(std::remove_if(connections_.begin(), connections_.end(), between), connections_.end());
  return dropped;
}

std::optional<caf::timespan> network::next_delivery(caf::timespan now) const {
  std::optional<caf::timespan> next;
  auto consider = [&](const std::deque<connection::chunk>& queue, size_t from, size_t to) {
    if (queue.empty() || is_cut(from, to))
      return;
    auto in = queue.front().due > now ? queue.front().due - now : caf::timespan{0};
    if (!next || in < *next)
      next = in;
  };
  for (auto& c : connections_) {
    consider(c.to_server, c.client, c.server);
    consider(c.to_client, c.server, c.client);
  }
  return next;
}

void network::drop_host(std::vector<slot>& slots, size_t slot_index) {
  auto generation = slots[slot_index].generation;
  for (auto& c : connections_) {
    if (!c.taken)
      continue;
    if (c.server == slot_index && c.server_generation == generation && alive(slots, c.client, c.client_generation))
      closing_.push_back(end{c.client, c.client_generation, c.client_id});
    if (c.client == slot_index && c.client_generation == generation && alive(slots, c.server, c.server_generation))
      closing_.push_back(end{c.server, c.server_generation, c.server_id});
  }
  connections_.erase(std::remove_if(connections_.begin(), connections_.end(),
                                    [&](const connection& c) {
                                      return (c.client == slot_index && c.client_generation == generation)
                                             || (c.taken && c.server == slot_index
                                                 && c.server_generation == generation);
                                    }),
                     connections_.end());
  listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(),
                                  [&](const listener& l) { return l.server == slot_index; }),
                   listeners_.end());
}

} // namespace cafka::sim
