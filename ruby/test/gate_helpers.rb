# frozen_string_literal: true

require_relative '../shared/request_gate'

# A RequestGate with small limits, and the chunks fed to it as a connection feeds them.
module GateHelpers
  LIMITS = {
    'MAX_UPLOAD_BYTES' => 1000, 'MAX_HEADER_BYTES' => 2048, 'MAX_HEADER_LINE_BYTES' => 1000,
    'MAX_URL_BYTES' => 200, 'KEEPALIVE_TIMEOUT_MS' => 5000
  }.freeze

  def gate
    RequestGate.new(LIMITS, ->(path) { path == '/hello' ? 'GET, HEAD' : nil })
  end

  # Feeds the chunks; returns [bytes shown to the parser, answers, 100-continues].
  def run_chunks(gate, chunks)
    fed = +''
    answers = []
    continues = 0
    chunks.each do |chunk|
      steps = gate.scan(chunk.b)
      next fed << chunk.b if steps == :pass

      steps.each do |kind, value|
        case kind
        when :feed then fed << value
        when :answer then answers << value.status
        when :continue then continues += 1
        end
      end
    end
    [fed, answers, continues]
  end

  def splits(text)
    (1...text.bytesize).map { |at| [text.byteslice(0, at), text.byteslice(at..)] }
  end

  RequestGate = EmVsNode::RequestGate
end
