#include "cluster/embedded_coordinator.hpp"

#include <utility>

namespace cafka::cluster {

embedded_coordinator::embedded_coordinator(std::shared_ptr<embedded_store> store,
                                           session_callback on_state)
  : store_(std::move(store)), id_(store_->open_session(std::move(on_state))) {
}

embedded_coordinator::~embedded_coordinator() {
  close();
}

session_id embedded_coordinator::session() const {
  return id_;
}

session_state embedded_coordinator::state() const {
  return store_->state_of(id_).value_or(session_state::closed);
}

void embedded_coordinator::create(const std::string& path, std::string_view data,
                                  create_mode mode, create_callback done) {
  store_->create(id_, path, data, mode, std::move(done));
}

void embedded_coordinator::remove(const std::string& path, int32_t version,
                                  status_callback done) {
  store_->remove(id_, path, version, std::move(done));
}

void embedded_coordinator::exists(const std::string& path, watcher w, exists_callback done) {
  store_->exists(id_, path, std::move(w), std::move(done));
}

void embedded_coordinator::get(const std::string& path, watcher w, get_callback done) {
  store_->get(id_, path, std::move(w), std::move(done));
}

void embedded_coordinator::set(const std::string& path, std::string_view data, int32_t version,
                               set_callback done) {
  store_->set(id_, path, data, version, std::move(done));
}

void embedded_coordinator::children(const std::string& path, watcher w,
                                    children_callback done) {
  store_->children(id_, path, std::move(w), std::move(done));
}

void embedded_coordinator::close() {
  store_->close_session(id_);
}

} // namespace cafka::cluster
