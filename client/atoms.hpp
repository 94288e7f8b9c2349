#pragma once
// The client's atoms (at most 10 characters). CAF's own atoms are used where they fit:
// flush, close, get, connect, timeout, tick.

#include <caf/atom.hpp>
#include <caf/type_id.hpp>

CAF_ADD_ATOM(cafka_client, cafka::client, send_atom, "send")
CAF_ADD_ATOM(cafka_client, cafka::client, seek_atom, "seek")
CAF_ADD_ATOM(cafka_client, cafka::client, stop_atom, "stop")
CAF_ADD_ATOM(cafka_client, cafka::client, retry_atom, "retry")
CAF_ADD_ATOM(cafka_client, cafka::client, wakeup_atom, "wakeup")
CAF_ADD_ATOM(cafka_client, cafka::client, drain_atom, "drain")
CAF_ADD_ATOM(cafka_client, cafka::client, commit_atom, "commit")
CAF_ADD_ATOM(cafka_client, cafka::client, autocommit_atom, "autocommit")
// the transactional producer (producer_actor.hpp)
CAF_ADD_ATOM(cafka_client, cafka::client, init_transactions_atom, "inittxns")
CAF_ADD_ATOM(cafka_client, cafka::client, begin_txn_atom, "begintxn")
CAF_ADD_ATOM(cafka_client, cafka::client, send_offsets_atom, "sendoffs")
CAF_ADD_ATOM(cafka_client, cafka::client, commit_txn_atom, "committxn")
CAF_ADD_ATOM(cafka_client, cafka::client, abort_txn_atom, "aborttxn")
CAF_ADD_ATOM(cafka_client, cafka::client, txn_coordinator_atom, "txncoord")
