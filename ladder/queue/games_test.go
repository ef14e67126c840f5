package queue

// The tests look games up by name: the registry is filled by importing package games.
import _ "github.com/arena-games/arena/games"
