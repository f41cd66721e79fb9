# frozen_string_literal: true

require 'bundler/setup'
require 'minitest/autorun'
require 'eventmachine'
require_relative '../em/upstream_pool'

# The pool's own rules, against a small upstream on a real socket inside the same loop: a pool of
# one connection, so that calls beyond it wait, in order; a call cancelled while waiting leaves
# the queue (the upstream never sees it); the deadline ends a call and its connection.
class UpstreamPoolTest < Minitest::Test
  # Answers GET /delay?ms=N with `waited N ms` after N ms (ms=hang: never), keeping the
  # connection; records each request's path and each connection.
  module Upstream
    def initialize(seen)
      super()
      @seen = seen
      @buffer = +''
      @seen[:connections] += 1
    end

    def receive_data(data)
      @buffer << data
      while (ended = @buffer.index("\r\n\r\n"))
        path = @buffer[/\AGET (\S+)/, 1]
        @buffer = @buffer[(ended + 4)..]
        @seen[:paths] << path
        ms = path[/ms=(\d+)/, 1]
        answer(ms.to_i) if ms
      end
    end

    def answer(delay_ms)
      body = "waited #{delay_ms} ms\n"
      EM.add_timer(delay_ms / 1000.0) { send_data("HTTP/1.1 200 OK\r\nContent-Length: #{body.bytesize}\r\n\r\n#{body}") }
    end
  end

  # Runs the block inside a loop with an upstream and a pool of `size`; the block calls done
  # to stop. Returns what the upstream saw.
  def with_pool(size:, timeout_ms: 2000)
    seen = { paths: [], connections: 0 }
    EM.run do
      server = EM.start_server('127.0.0.1', 0, Upstream, seen)
      port = Socket.unpack_sockaddr_in(EM.get_sockname(server))[0]
      EM.add_timer(5) { EM.stop && flunk('the test did not finish within 5 s') }
      yield EmVsNode::UpstreamPool.new('127.0.0.1', port, size: size, timeout_ms: timeout_ms), -> { EM.stop }
    end
    seen
  end

  def test_calls_beyond_the_pool_wait_in_order_of_arrival_on_one_reused_connection
    bodies = []
    seen = with_pool(size: 1) do |pool, done|
      [30, 1, 2, 3].each do |ms|
        pool.get("/delay?ms=#{ms}") do |body|
          bodies << body
          done.call if bodies.size == 4
        end
      end
    end
    assert_equal ["waited 30 ms\n", "waited 1 ms\n", "waited 2 ms\n", "waited 3 ms\n"], bodies
    assert_equal %w[/delay?ms=30 /delay?ms=1 /delay?ms=2 /delay?ms=3], seen[:paths]
    assert_equal 1, seen[:connections]
  end

  def test_a_call_cancelled_while_waiting_leaves_the_queue_and_is_never_told
    told = []
    seen = with_pool(size: 1) do |pool, done|
      pool.get('/delay?ms=20') { |body| told << body }
      waiting = pool.get('/delay?ms=1') { |body| told << [:cancelled, body] }
      pool.get('/delay?ms=2') do |body|
        told << body
        done.call
      end
      waiting.cancel
    end
    assert_equal ["waited 20 ms\n", "waited 2 ms\n"], told
    assert_equal %w[/delay?ms=20 /delay?ms=2], seen[:paths]
  end

  def test_the_deadline_ends_a_call_and_its_connection_and_the_next_call_opens_another
    told = []
    seen = with_pool(size: 1, timeout_ms: 100) do |pool, done|
      started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      pool.get('/delay?ms=hang') do |body|
        told << [body, Process.clock_gettime(Process::CLOCK_MONOTONIC) - started]
        pool.get('/delay?ms=1') do |again|
          told << again
          done.call
        end
      end
    end
    assert_nil told[0][0]
    assert_in_delta 0.1, told[0][1], 0.05
    assert_equal "waited 1 ms\n", told[1]
    assert_equal 2, seen[:connections]
  end
end
