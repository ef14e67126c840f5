#!/bin/sh
# Regenerates the SDK's protobuf modules from protocol/*.proto with Debian's protoc
# (apt-get install protobuf-compiler; 3.21 matches python3-protobuf 4.21). Only message
# code is generated: the SDK registers its gRPC handlers itself, so no gRPC plugin is
# needed. Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/arena_bot/pb"
cd "$here/../../protocol"
protoc -I . --python_out="$out" bot.proto ivanhoe.proto kardinal.proto ninjas.proto \
  testgame.proto health.proto controller.proto
# protoc writes top-level imports between the modules; the SDK keeps them in a package.
sed -i 's/^import \([a-z]*_pb2\) as /from . import \1 as /' "$out"/*_pb2.py
