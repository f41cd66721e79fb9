# frozen_string_literal: true

require 'minitest/autorun'
require_relative 'gate_helpers'

# The gate must frame requests the same way however the bytes are split into chunks.
class RequestGateTest < Minitest::Test
  include GateHelpers

  def test_complete_requests_pass_unchanged
    text = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n"
    assert_equal :pass, gate.scan(text.b)
  end

  def test_every_split_of_a_pipelined_upload_frames_alike
    text = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\nhello\r\n\r\nyouGET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
    splits(text).each do |chunks|
      g = gate
      fed, answers, = run_chunks(g, chunks)
      assert_equal text, fed, "split at #{chunks[0].bytesize}"
      assert_empty answers
      assert_equal [true, false], g.heads.map(&:upload)
    end
  end

  def test_a_byte_at_a_time
    text = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
    g = gate
    fed, answers, = run_chunks(g, text.chars)
    assert_equal text, fed
    assert_empty answers
    assert_equal 1, g.heads.size
  end

  def test_a_refused_request_is_never_shown_to_the_parser
    good = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
    bad = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n#{'x' * 100}"
    splits(good + bad).each do |chunks|
      fed, answers, = run_chunks(gate, chunks + ['more after the refusal'])
      assert_equal good, fed
      assert_equal [413], answers
    end
  end

  def test_methods_the_parser_does_not_know_are_answered_by_the_gate
    fed, answers, = run_chunks(gate, ["PATCH /hello HTTP/1.1\r\nHost: x\r\n\r\n"])
    assert_empty fed
    assert_equal [405], answers
  end

  def test_leading_empty_lines_are_not_shown_to_the_parser
    text = "GET /hello HTTP/1.1\r\nHost: x\r\n\r\n"
    fed, answers, = run_chunks(gate, ["\r\n" * 30, text])
    assert_equal text, fed
    assert_empty answers
  end

  def test_noise_is_refused_before_a_blank_line_arrives
    ["\x16\x03\x01\x02\x00", "GET /hello HTTP/1.1\nHost", 'get /hello', "GET /hello HTTP/1.2\r\n", "GET /hello HTTP/1.1\r\nFo@",
     "GET /hello HTTP/1.1\r\nHost: x\r\n b", "GET /hello HTTP/1.1\r\nContent-Length: 4 2"].each do |start|
      _, answers, = run_chunks(gate, [start])
      assert_equal [400], answers, start.inspect
    end
  end

  def test_a_plausible_start_waits
    ['GE', 'GET /hel', 'GET /hello ', 'GET /hello HT', "GET /hello HTTP/1.1\r", "GET /hello HTTP/1.1\r\nHost: x\r\n",
     'GET  /hello  HTTP/1.1', "GET /hello HTTP/2.0\r\n", "GET /hello HTTP/1.1\r\nContent-Length: 4 "].each do |start|
      fed, answers, = run_chunks(gate, [start])
      assert_empty fed
      assert_empty answers, start.inspect
    end
  end

  # One moment to refuse (CONTRACT.md): where Node's parser reads on to the end of the header
  # section, the gate waits too; where it refuses at a byte, the gate refuses at that byte.
  def test_the_moment_of_refusal_is_nodes_parsers
    ["OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n", 'OPTIONS * RTS', "GET /hello\r\nHost: x\r\n",
     "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n",
     "POST /upload HTTP/1.1\r\nContent-Length: 18446744073709551615\r\n"].each do |start|
      _, answers, = run_chunks(gate, [start])
      assert_empty answers, "waits: #{start.inspect}"
    end
    ["OPTIONS * RTSP/1.0\r\nFo@", "POST /upload HTTP/1.1\r\nContent-Length: \r\nH",
     "POST /upload HTTP/1.1\r\nContent-Length: 18446744073709551616",
     "POST /upload HTTP/1.1\r\nContent-Length: 99999999999999999999999"].each do |start|
      _, answers, = run_chunks(gate, [start])
      assert_equal [400], answers, "at once: #{start.inspect}"
    end
    ["OPTIONS * RTSP/1.0\r\nCSeq: 1\r\n\r\n", "GET /hello\r\nHost: x\r\n\r\n"].each do |whole|
      _, answers, = run_chunks(gate, [whole])
      assert_equal [400], answers, "at its end: #{whole.inspect}"
    end
  end

  def test_limits_and_framing_errors
    {
      "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" => 411,
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n" => 400,
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n" => 400,
      "GET /#{'a' * 300} HTTP/1.1\r\nHost: x\r\n\r\n" => 414,
      "GET / HTTP/1.1\r\nHost: x\r\nX: #{'a' * 1100}\r\n\r\n" => 431,
      "GET / HTTP/1.1\r\n#{"X: aaaaaaaaaa\r\n" * 200}\r\n" => 431,
      "GET / HTTP/1.1\r\n\r\n" => 400,
      "GET / HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n" => 417
    }.each do |text, status|
      _, answers, = run_chunks(gate, [text])
      assert_equal [status], answers, text[0, 60].inspect
    end
  end

  def test_expect_continue
    text = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
    fed, answers, continues = run_chunks(gate, [text, 'ok'])
    assert_equal "#{text}ok", fed
    assert_empty answers
    assert_equal 1, continues
  end

  def test_a_body_the_route_does_not_read_is_dropped_and_its_request_shown_without_it
    text = "GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\nHost: x\r\n\r\n"
    splits(text).each do |chunks|
      g = gate
      fed, answers, = run_chunks(g, chunks)
      assert_equal "GET /hello HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", fed, "split at #{chunks[0].bytesize}"
      assert_empty answers
      refute g.discarding?
    end
  end

  def test_spaces_in_the_request_line_reach_the_parser_as_one
    fed, answers, = run_chunks(gate, ["POST  /upload   HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok"])
    assert_equal "POST /upload HTTP/1.1\r\nContent-Length: 2\r\n\r\nok", fed
    assert_empty answers
  end

  # As Node 22's and 24's parser (llhttp 9.4) reads it: an empty Transfer-Encoding field is its
  # fault (a 400 with its body, even to HEAD); an empty element in a field is not.
  def test_transfer_encoding_as_nodes_parser_reads_it
    {
      "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding:\r\n\r\n" => [400, false],
      "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\nContent-Length: 5\r\n\r\n" => [400, false],
      "HEAD /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding:\r\nContent-Length: 5\r\n\r\n" => [400, false],
      "HEAD /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked,\r\n\r\n" => [400, false],
      "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: , chunked\r\n\r\n" => [411, false],
      "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding:\r\n\r\n" => [400, false],
      "HEAD /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \r\n\r\n" => [400, false]
    }.each do |text, (status, head_only)|
      g = gate
      answers = g.scan(text.b).filter_map { |kind, value| value if kind == :answer }
      assert_equal [[status, head_only]], answers.map { |a| [a.status, a.head_only || false] }, text.inspect
    end
  end

  # White space around a Content-Length is no part of it, a tab after it too (llhttp 9.4); a
  # digit after white space is a fault at once.
  def test_content_length_between_white_space
    text = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length:\t2\t\r\n\r\nok"
    fed, answers, = run_chunks(gate, [text])
    assert_equal text, fed, 'the request reaches the parser whole, its body with it'
    assert_empty answers
    _, answers, = run_chunks(gate, ["POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2\t2"])
    assert_equal [400], answers
  end

  def test_expect_counts_only_on_an_http11_upload
    [
      "POST /upload HTTP/1.0\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n",
      "GET /hello HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
      "GET /hello HTTP/1.0\r\nExpect: teapot\r\n\r\n"
    ].each do |text|
      g = gate
      _, answers, continues = run_chunks(g, [text])
      assert_empty answers, text.inspect
      assert_equal 0, continues, text.inspect
    end
  end

  def test_nothing_is_read_after_a_final_request
    text = "GET /hello HTTP/1.0\r\n\r\n"
    fed, answers, = run_chunks(gate, [text + text, text])
    assert_equal text, fed
    assert_empty answers
  end
end
